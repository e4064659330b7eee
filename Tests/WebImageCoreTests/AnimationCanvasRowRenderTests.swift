import Testing
import WebImageCore

/// ``AnimationCanvas/render(_:decodeRows:)``: frames handed over a row at a time give the same
/// canvas as whole frames (``AnimationCanvas/render(_:decode:)``), rows and pixels not drawn
/// count as transparent black under both blends, and out-of-range rows are ignored.
@Suite struct AnimationCanvasRowRenderTests {
    /// Four frames on a 5 x 4 canvas with every blend and disposal, some pixels translucent.
    static let layouts = [
        AnimationFrameLayout(x: 0, y: 0, width: 5, height: 4, blend: .source, disposal: .none, isKeyframe: true),
        AnimationFrameLayout(x: 1, y: 1, width: 3, height: 2, blend: .over, disposal: .previous, isKeyframe: false),
        AnimationFrameLayout(x: 2, y: 0, width: 2, height: 3, blend: .source, disposal: .background, isKeyframe: false),
        AnimationFrameLayout(x: 0, y: 2, width: 4, height: 2, blend: .over, disposal: .none, isKeyframe: false),
    ]

    /// Frame `index`'s own pixels: a pattern with opaque, translucent and transparent pixels.
    static func pixels(of index: Int) -> [UInt8] {
        let layout = layouts[index]
        return (0..<(layout.width * layout.height)).flatMap { position -> [UInt8] in
            let value = UInt8((position * 37 + index * 11) & 0xFF)
            let alpha: UInt8 = [255, 128, 0, 255, 40][(position + index) % 5]
            return [value, value &+ 50, value &+ 100, alpha]
        }
    }

    @Test("row by row gives the canvas that whole frames give, for every frame in order and out of order",
          arguments: [[0, 1, 2, 3], [3, 1, 2, 0, 3], [2, 2, 1]])
    func rowsMatchWholeFrames(_ order: [Int]) throws {
        var whole = try AnimationCanvas(width: 5, height: 4, frames: Self.layouts)
        var rows = try AnimationCanvas(width: 5, height: 4, frames: Self.layouts)
        for target in order {
            let expected = try whole.render(target) { Self.pixels(of: $0) }
            let actual = try rows.render(target) { index, draw in
                let layout = Self.layouts[index]
                let own = Self.pixels(of: index)
                own.withUnsafeBufferPointer { buffer in
                    for row in (0..<layout.height).reversed() {  // any order
                        draw(row, UnsafeBufferPointer(rebasing: buffer[(row * layout.width * 4)..<((row + 1) * layout.width * 4)]))
                    }
                }
            }
            #expect(actual == expected, "frame \(target) of \(order)")
        }
    }

    @Test("rows and pixels not drawn are transparent: they keep the canvas under over, clear it under source")
    func undrawnRowsAreTransparent() throws {
        let opaque: [UInt8] = [9, 8, 7, 255]
        let layouts = [
            AnimationFrameLayout(x: 0, y: 0, width: 3, height: 2, blend: .source, disposal: .none, isKeyframe: true),
            AnimationFrameLayout(x: 0, y: 0, width: 3, height: 2, blend: .over, disposal: .none, isKeyframe: false),
            AnimationFrameLayout(x: 0, y: 0, width: 3, height: 2, blend: .source, disposal: .none, isKeyframe: false),
        ]
        var canvas = try AnimationCanvas(width: 3, height: 2, frames: layouts)
        let full = [UInt8](repeating: 200, count: 3 * 2 * 4)
        let frame0 = try canvas.render(0) { _, draw in
            full.withUnsafeBufferPointer { draw(0, UnsafeBufferPointer(rebasing: $0[0..<12])); draw(1, UnsafeBufferPointer(rebasing: $0[12..<24])) }
        }
        #expect(frame0 == full)
        // Frame 1 (over) draws one pixel of row 0 and a row past the rectangle: the rest stays.
        let frame1 = try canvas.render(1) { _, draw in
            opaque.withUnsafeBufferPointer { draw(0, $0); draw(2, $0); draw(-1, $0) }
        }
        #expect(frame1 == opaque + [UInt8](repeating: 200, count: 20))
        // Frame 2 (source) draws the same: the rest of its rectangle is cleared.
        let frame2 = try canvas.render(2) { _, draw in
            opaque.withUnsafeBufferPointer { draw(0, $0) }
        }
        #expect(frame2 == opaque + [UInt8](repeating: 0, count: 20))
    }

    @Test("an error from decodeRows is rethrown and the next render starts over from the keyframe")
    func errorsRestart() throws {
        struct Failure: Error {}
        var canvas = try AnimationCanvas(width: 5, height: 4, frames: Self.layouts)
        #expect(throws: Failure.self) {
            _ = try canvas.render(1) { index, _ in if index == 1 { throw Failure() } }
        }
        var decoded: [Int] = []
        _ = try canvas.render(1) { index, _ in decoded.append(index) }
        #expect(decoded == [0, 1])
    }
}
