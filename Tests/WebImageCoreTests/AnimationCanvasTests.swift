import Testing
import WebImageCore

/// ``AnimationCanvas``: the blend rules (source, straight-alpha over), the disposal rules (none,
/// background, previous), which frames are decoded for sequential and random access, recovery
/// after a failed decode, and the checks on its input.
@Suite struct AnimationCanvasTests {
    typealias Pixel = (UInt8, UInt8, UInt8, UInt8)

    static let red: Pixel = (255, 0, 0, 255)
    static let green: Pixel = (0, 255, 0, 255)
    static let blue: Pixel = (0, 0, 255, 255)
    static let clear: Pixel = (0, 0, 0, 0)

    /// `count` pixels of `pixel`, as a frame's own bytes.
    static func solid(_ pixel: Pixel, count: Int = 1) -> [UInt8] {
        (0..<count).flatMap { _ in [pixel.0, pixel.1, pixel.2, pixel.3] }
    }

    /// A frame at (`x`, 0), `width` x 1.
    static func frame(x: Int, width: Int = 1, blend: AnimationFrameLayout.Blend = .over,
                      disposal: AnimationFrameLayout.Disposal = .none, isKeyframe: Bool = false) -> AnimationFrameLayout {
        AnimationFrameLayout(x: x, y: 0, width: width, height: 1, blend: blend, disposal: disposal, isKeyframe: isKeyframe)
    }

    /// Pixel `index` of `pixels`, as four bytes.
    static func pixel(_ pixels: [UInt8], _ index: Int) -> [UInt8] {
        Array(pixels[(index * 4)..<(index * 4 + 4)])
    }

    static func bytes(_ pixel: Pixel) -> [UInt8] {
        [pixel.0, pixel.1, pixel.2, pixel.3]
    }

    // MARK: - Blend

    @Test func sourceReplacesTheRectangleAlphaIncluded() throws {
        let translucent: Pixel = (0, 0, 255, 128)
        var canvas = try AnimationCanvas(width: 3, height: 1, frames: [
            Self.frame(x: 0, width: 3, blend: .source),
            Self.frame(x: 1, blend: .source),
        ])
        let pixels = try canvas.render(1) { $0 == 0 ? Self.solid(Self.red, count: 3) : Self.solid(translucent) }
        #expect(Self.pixel(pixels, 0) == Self.bytes(Self.red))
        #expect(Self.pixel(pixels, 1) == Self.bytes(translucent))
        #expect(Self.pixel(pixels, 2) == Self.bytes(Self.red))
        #expect(canvas.pixels == pixels)
    }

    /// Straight-alpha "over", rounded to nearest (the expected values come from the formula in
    /// exact integer arithmetic, worked outside Swift).
    @Test(arguments: [
        // source, canvas below, result
        ([0, 0, 255, 128], [255, 0, 0, 255], [127, 0, 128, 255]),
        ([10, 20, 30, 100], [0, 0, 0, 0], [10, 20, 30, 100]),
        ([200, 100, 0, 128], [0, 100, 200, 128], [134, 100, 66, 192]),
        ([255, 255, 255, 1], [0, 0, 0, 255], [1, 1, 1, 255]),
        ([9, 9, 9, 0], [1, 2, 3, 4], [1, 2, 3, 4]),  // transparent: the canvas stays
        ([9, 8, 7, 255], [1, 2, 3, 4], [9, 8, 7, 255]),  // opaque: replaced
    ] as [([UInt8], [UInt8], [UInt8])])
    func overBlendsStraightAlpha(source: [UInt8], below: [UInt8], expected: [UInt8]) throws {
        var canvas = try AnimationCanvas(width: 1, height: 1, frames: [Self.frame(x: 0, blend: .source), Self.frame(x: 0, blend: .over)])
        let pixels = try canvas.render(1) { $0 == 0 ? below : source }
        #expect(pixels == expected)
    }

    // MARK: - Disposal

    /// Frame 0 (red, left pixel) is disposed of as the argument says before frame 1 (blue,
    /// right pixel) draws; for `.previous` on the first frame, "before" is the empty canvas.
    @Test(arguments: [
        (AnimationFrameLayout.Disposal.none, AnimationCanvasTests.bytes(AnimationCanvasTests.red)),
        (.background, AnimationCanvasTests.bytes(AnimationCanvasTests.clear)),
        (.previous, AnimationCanvasTests.bytes(AnimationCanvasTests.clear)),
    ])
    func disposalOfTheFirstFrame(disposal: AnimationFrameLayout.Disposal, left: [UInt8]) throws {
        var canvas = try AnimationCanvas(width: 2, height: 1, frames: [Self.frame(x: 0, disposal: disposal), Self.frame(x: 1)])
        let first = try canvas.render(0) { _ in Self.solid(Self.red) }
        #expect(Self.pixel(first, 0) == Self.bytes(Self.red), "disposal happens after the frame shows")
        let pixels = try canvas.render(1) { _ in Self.solid(Self.blue) }
        #expect(Self.pixel(pixels, 0) == left)
        #expect(Self.pixel(pixels, 1) == Self.bytes(Self.blue))
    }

    @Test func previousRestoresWhatWasUnderTheFrame() throws {
        var canvas = try AnimationCanvas(width: 2, height: 2, frames: [
            AnimationFrameLayout(x: 0, y: 0, width: 2, height: 2, blend: .source, disposal: .none),
            AnimationFrameLayout(x: 1, y: 1, width: 1, height: 1, blend: .source, disposal: .previous),
            AnimationFrameLayout(x: 0, y: 0, width: 1, height: 1, blend: .over, disposal: .none),
        ])
        let pixels = try canvas.render(2) { index in
            switch index {
            case 0: Self.solid(Self.red, count: 4)
            case 1: Self.solid(Self.clear)
            default: Self.solid(Self.green)
            }
        }
        #expect(Self.pixel(pixels, 0) == Self.bytes(Self.green))
        #expect(Self.pixel(pixels, 1) == Self.bytes(Self.red))
        #expect(Self.pixel(pixels, 2) == Self.bytes(Self.red))
        #expect(Self.pixel(pixels, 3) == Self.bytes(Self.red), "frame 1 is undone before frame 2")
    }

    @Test func backgroundClearsOnlyTheRectangle() throws {
        var canvas = try AnimationCanvas(width: 3, height: 1, frames: [
            Self.frame(x: 0, width: 3, blend: .source),
            Self.frame(x: 1, blend: .source, disposal: .background),
            Self.frame(x: 2, width: 1, blend: .over),
        ])
        let pixels = try canvas.render(2) { index in
            [Self.solid(Self.red, count: 3), Self.solid(Self.blue), Self.solid(Self.clear)][index]
        }
        #expect(pixels == Self.bytes(Self.red) + Self.bytes(Self.clear) + Self.bytes(Self.red))
    }

    // MARK: - Which frames are decoded

    @Test func sequentialAndRandomAccessDecodeFromTheNearestKeyframe() throws {
        var canvas = try AnimationCanvas(width: 1, height: 1, frames: [
            Self.frame(x: 0), Self.frame(x: 0), Self.frame(x: 0, blend: .source, isKeyframe: true), Self.frame(x: 0),
        ])
        var decoded: [Int] = []
        func render(_ index: Int) throws {
            _ = try canvas.render(index) { frame in
                decoded.append(frame)
                return [UInt8(frame), 0, 0, 255]
            }
        }
        try render(0)
        try render(1)
        #expect(decoded == [0, 1], "one decode per frame in order")
        decoded = []
        try render(1)
        #expect(decoded.isEmpty, "the frame on the canvas is not drawn again")
        try render(3)
        #expect(decoded == [2, 3], "carries on from the canvas")
        decoded = []
        try render(0)
        try render(3)
        #expect(decoded == [0, 2, 3], "back to frame 0, then forward past the keyframe")
        decoded = []
        try render(1)
        #expect(decoded == [0, 1], "backwards restarts at the keyframe at or before the target")
        #expect(canvas.pixels == [1, 0, 0, 255])
    }

    @Test func aFailedDecodeMakesTheNextRenderStartOver() throws {
        struct Failure: Error {}
        var canvas = try AnimationCanvas(width: 1, height: 2, frames: [
            AnimationFrameLayout(x: 0, y: 0, width: 1, height: 1, blend: .over, disposal: .none, isKeyframe: true),
            AnimationFrameLayout(x: 0, y: 1, width: 1, height: 1, blend: .over, disposal: .none),
            AnimationFrameLayout(x: 0, y: 1, width: 1, height: 1, blend: .over, disposal: .none),
        ])
        _ = try canvas.render(0) { _ in Self.solid(Self.red) }
        #expect(throws: Failure.self) {
            _ = try canvas.render(2) { index in
                if index == 2 { throw Failure() }
                return Self.solid(Self.blue)
            }
        }
        var decoded: [Int] = []
        let pixels = try canvas.render(2) { index in
            decoded.append(index)
            return Self.solid(Self.green)
        }
        #expect(decoded == [0, 1, 2])
        #expect(pixels == Self.bytes(Self.green) + Self.bytes(Self.green))
    }

    @Test func anEmptyFrameDrawsNothing() throws {
        var canvas = try AnimationCanvas(width: 2, height: 1, frames: [
            Self.frame(x: 0, width: 2, blend: .source),
            Self.frame(x: 2, width: 0, disposal: .background),
            Self.frame(x: 0, width: 0, disposal: .previous),
        ])
        let pixels = try canvas.render(2) { $0 == 0 ? Self.solid(Self.red, count: 2) : [] }
        #expect(pixels == Self.solid(Self.red, count: 2))
    }

    // MARK: - Checks

    @Test(arguments: [
        AnimationFrameLayout(x: 1, y: 0, width: 4, height: 1, blend: .over, disposal: .none),
        AnimationFrameLayout(x: 0, y: 2, width: 1, height: 1, blend: .over, disposal: .none),
        AnimationFrameLayout(x: -1, y: 0, width: 1, height: 1, blend: .over, disposal: .none),
        AnimationFrameLayout(x: 0, y: 0, width: -1, height: 1, blend: .over, disposal: .none),
        AnimationFrameLayout(x: Int.max, y: 0, width: Int.max, height: 1, blend: .over, disposal: .none),
    ])
    func framesOutsideTheCanvasAreRejected(frame: AnimationFrameLayout) {
        let error = #expect(throws: WebImageError.self) {
            _ = try AnimationCanvas(width: 4, height: 2, frames: [Self.frame(x: 0), frame])
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("frame 1") == true, "\(error?.message ?? "")")
    }

    @Test func impossibleCanvasSizesAreRejected() {
        for (width, height) in [(-1, 1), (1, -1), (Int.max, 2), (Int.max / 2, Int.max / 2)] {
            let error = #expect(throws: WebImageError.self) { _ = try AnimationCanvas(width: width, height: height, frames: []) }
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test func wrongByteCountsAndIndicesAreReported() throws {
        var canvas = try AnimationCanvas(width: 2, height: 1, frames: [Self.frame(x: 0, width: 2)])
        let short = #expect(throws: WebImageError.self) { _ = try canvas.render(0) { _ in Self.solid(Self.red) } }
        #expect(short?.code == .badImageData)
        #expect(short?.message.contains("4 bytes, not 8") == true, "\(short?.message ?? "")")
        for index in [-1, 1] {
            let outside = #expect(throws: WebImageError.self) { _ = try canvas.render(index) { _ in Self.solid(Self.red, count: 2) } }
            #expect(outside?.code == .invalidArgument)
        }
        #expect(try canvas.render(0) { _ in Self.solid(Self.red, count: 2) } == Self.solid(Self.red, count: 2))
    }
}
