import Testing
import WebImageCore

/// ``AnimationCanvas/takePixels()`` (issue 19): the canvas hands its buffer over with a frame no
/// later frame is drawn on (the last one, or the one before a keyframe), so the caller owns it
/// and can change it without a copy; otherwise it keeps the pixels and shares them. Either way
/// what the caller does with the pixels never changes a later render.
@Suite struct AnimationCanvasTakePixelsTests {
    typealias Tests = AnimationCanvasTests

    /// Three 1x1 frames side by side on a 3x1 canvas, each drawn over the ones before: frame
    /// `n` shows frames 0...n. `keyframe2` makes frame 2 cover the canvas as a keyframe.
    static func canvas(keyframe2: Bool = false) throws -> AnimationCanvas {
        try AnimationCanvas(width: 3, height: 1, frames: [
            Tests.frame(x: 0, isKeyframe: true),
            Tests.frame(x: 1),
            keyframe2 ? Tests.frame(x: 0, width: 3, blend: .source, isKeyframe: true) : Tests.frame(x: 2),
        ])
    }

    static let colors = [Tests.red, Tests.green, Tests.blue]

    static func decode(_ index: Int, keyframe2: Bool = false) -> [UInt8] {
        keyframe2 && index == 2 ? Tests.solid(Tests.blue, count: 3) : Tests.solid(colors[index])
    }

    /// Frame `index` rendered on a canvas of its own.
    static func reference(_ index: Int, keyframe2: Bool = false) throws -> [UInt8] {
        var canvas = try canvas(keyframe2: keyframe2)
        return try canvas.render(index) { decode($0, keyframe2: keyframe2) }
    }

    static func address(_ pixels: [UInt8]) -> UInt {
        pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func theLastFrameIsHandedOverAndCanBeChangedWithoutACopy() throws {
        var canvas = try Self.canvas()
        _ = try canvas.render(2) { Self.decode($0) }
        let drawn = Self.address(canvas.pixels)
        var taken = canvas.takePixels()
        #expect(canvas.pixels.isEmpty)
        #expect(taken == (try Self.reference(2)))
        #expect(Self.address(taken) == drawn)
        taken.withUnsafeMutableBufferPointer { $0.update(repeating: 9) }
        #expect(Self.address(taken) == drawn)  // changed where it lies: it had no other owner

        // The next render starts over on a new buffer and is not touched by the change.
        var decoded: [Int] = []
        let again = try canvas.render(2) { decoded.append($0); return Self.decode($0) }
        #expect(again == (try Self.reference(2)))
        #expect(decoded == [0, 1, 2])
        #expect(try canvas.render(1) { Self.decode($0) } == (try Self.reference(1)))
    }

    @Test func aFrameTheNextOneIsDrawnOnIsKeptAndShared() throws {
        var canvas = try Self.canvas()
        _ = try canvas.render(1) { Self.decode($0) }
        var taken = canvas.takePixels()
        #expect(taken == canvas.pixels)
        taken.withUnsafeMutableBufferPointer { $0.update(repeating: 9) }  // copies: the canvas keeps its own
        #expect(canvas.pixels == (try Self.reference(1)))
        var decoded: [Int] = []
        #expect(try canvas.render(2) { decoded.append($0); return Self.decode($0) } == (try Self.reference(2)))
        #expect(decoded == [2])  // carried on from frame 1
    }

    @Test func theFrameBeforeAKeyframeIsHandedOver() throws {
        var canvas = try Self.canvas(keyframe2: true)
        _ = try canvas.render(1) { Self.decode($0, keyframe2: true) }
        var taken = canvas.takePixels()
        #expect(canvas.pixels.isEmpty)
        #expect(taken == (try Self.reference(1, keyframe2: true)))
        taken.withUnsafeMutableBufferPointer { $0.update(repeating: 9) }
        var decoded: [Int] = []
        #expect(try canvas.render(2) { decoded.append($0); return Self.decode($0, keyframe2: true) } == (try Self.reference(2, keyframe2: true)))
        #expect(decoded == [2])  // the keyframe alone, on a clear canvas
    }

    @Test func beforeTheFirstRenderThePixelsAreClearAndKept() throws {
        var canvas = try Self.canvas()
        #expect(canvas.takePixels() == [UInt8](repeating: 0, count: 12))
        #expect(canvas.pixels.count == 12)
    }
}
