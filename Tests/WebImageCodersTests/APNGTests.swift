import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// APNG frames built by hand (stored deflate), with the composited canvases worked out from the
/// APNG specification.
@Suite struct APNGTests {
    let coder = PNGCoder()

    static let red = [255, 0, 0, 255]
    static let halfBlue = [0, 0, 255, 128]
    static let green = [0, 255, 0, 255]
    static let clear = [0, 0, 0, 0]

    struct FrameSpec {
        var x: Int, y: Int, width: Int, height: Int
        var pixel: [Int]
        var delay: (Int, Int)
        var dispose: UInt8
        var blend: UInt8
    }

    /// A 4x2 canvas: frame 0 red (none, source, 0/0 s); frame 1 half-transparent blue over the
    /// right half (previous, over, 1/100 s); frame 2 green at (0, 1) (background, source,
    /// 50/1000 s); frame 3 transparent at (0, 0) (none, source, 3/1 s). Loops twice.
    static let frames = [
        FrameSpec(x: 0, y: 0, width: 4, height: 2, pixel: red, delay: (0, 0), dispose: 0, blend: 0),
        FrameSpec(x: 2, y: 0, width: 2, height: 2, pixel: halfBlue, delay: (1, 100), dispose: 2, blend: 1),
        FrameSpec(x: 0, y: 1, width: 1, height: 1, pixel: green, delay: (50, 1000), dispose: 1, blend: 0),
        FrameSpec(x: 0, y: 0, width: 1, height: 1, pixel: clear, delay: (3, 1), dispose: 0, blend: 0),
    ]

    static func apng(defaultImageIsFirstFrame: Bool = true, frames: [FrameSpec] = frames, plays: Int = 2) -> Data {
        var png = PNGBuilder()
        png.header(width: 4, height: 2, bitDepth: 8, colorType: 6)
        png.chunk("acTL", PNGBuilder.be32(frames.count) + PNGBuilder.be32(plays))
        var sequence = 0
        func control(_ frame: FrameSpec) {
            png.chunk("fcTL", PNGBuilder.be32(sequence) + PNGBuilder.be32(frame.width) + PNGBuilder.be32(frame.height)
                      + PNGBuilder.be32(frame.x) + PNGBuilder.be32(frame.y) + PNGBuilder.be16(frame.delay.0) + PNGBuilder.be16(frame.delay.1)
                      + [frame.dispose, frame.blend])
            sequence += 1
        }
        func raw(_ frame: FrameSpec) -> [UInt8] {
            PNGBuilder.rawRows(Array(repeating: Array((0..<frame.width).map { _ in frame.pixel }.joined()), count: frame.height), bitDepth: 8)
        }
        if defaultImageIsFirstFrame {
            control(frames[0])
            png.imageData(raw(frames[0]))
        } else {
            // A default image that is not part of the animation: all green.
            png.imageData(raw(FrameSpec(x: 0, y: 0, width: 4, height: 2, pixel: green, delay: (0, 0), dispose: 0, blend: 0)))
        }
        for frame in frames.dropFirst(defaultImageIsFirstFrame ? 1 : 0) {
            control(frame)
            png.chunk("fdAT", PNGBuilder.be32(sequence) + PNGBuilder.zlibStored(raw(frame)))
            sequence += 1
        }
        png.end()
        return png.data
    }

    static func color(_ values: [Int]) -> RGBAColor {
        RGBAColor(red: UInt8(values[0]), green: UInt8(values[1]), blue: UInt8(values[2]), alpha: UInt8(values[3]))
    }

    /// The canvases the specification gives, row-major.
    static let expected: [[RGBAColor]] = {
        let r = color(red), mix = RGBAColor(red: 127, green: 0, blue: 128, alpha: 255), g = color(green), c = RGBAColor.clear
        return [
            [r, r, r, r, r, r, r, r],
            [r, r, mix, mix, r, r, mix, mix],
            [r, r, r, r, g, r, r, r],
            [c, r, r, r, c, r, r, r],
        ]
    }()

    static func pixels(_ bitmap: Bitmap) -> [RGBAColor] {
        (0..<2).flatMap { y in (0..<4).map { x in bitmap[x, y] } }
    }

    @Test func framesAreCompositedWithDisposeAndBlendOperations() throws {
        let image = try coder.decode(Self.apng())
        #expect(image.isLazilyAnimated)
        #expect(image.frameCount == 4)
        #expect(image.loopCount == 2)
        #expect(image.format == .png)
        for index in 0..<4 {
            #expect(Self.pixels(try image.frame(at: index).bitmap) == Self.expected[index], "frame \(index)")
        }
    }

    @Test func delaysOfTenMillisecondsOrLessShowForOneHundred() throws {
        let image = try coder.decode(Self.apng())
        #expect(image.frameDurations == [0.1, 0.1, 0.05, 3])
    }

    /// Frames stating 0/0 (a zero denominator means 100) and 5/1000 s play for 100 ms; every
    /// frame keeps what its `fcTL` states (``WebImage/statedFrameDurations``), lazy, eager and
    /// through the provider.
    @Test("stated delays are kept next to the played ones", arguments: [false, true])
    func statedDelaysAreKept(preloadAllFrames: Bool) throws {
        var frames = Self.frames
        frames[1].delay = (5, 1000)
        var options = ImageDecodeOptions()
        options.preloadAllFrames = preloadAllFrames
        let image = try coder.decode(Self.apng(frames: frames), options: options)
        #expect(image.isLazilyAnimated == !preloadAllFrames)
        #expect(image.frameDurations == [0.1, 0.1, 0.05, 3])
        #expect(image.statedFrameDurations == [0, 0.005, 0.05, 3])
        #expect(try image.frame(at: 1).statedDuration == 0.005)
        #expect(try image.frame(at: 1).duration == 0.1)
        #expect(try coder.decode(Self.apng()).statedFrameDurations == [0, 0.01, 0.05, 3])

        let provider = try coder.makeAnimatedImageProvider(for: Self.apng(frames: frames), options: ImageDecodeOptions())
        #expect((0..<4).map { provider.statedDuration(at: $0) } == [0, 0.005, 0.05, 3])
        #expect(provider.statedDuration(at: 4) == 0 && provider.statedDuration(at: -1) == 0)
    }

    @Test func aSingleFrameOrTheFirstFrameOnlyStatesZero() throws {
        var only = Self.frames[0]
        only.delay = (50, 1000)
        let single = try coder.decode(Self.apng(frames: [only]))
        #expect(single.frameCount == 1)
        #expect(single.frameDurations == [0] && single.statedFrameDurations == [0])
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let first = try coder.decode(Self.apng(), options: options)
        #expect(first.frameDurations == [0] && first.statedFrameDurations == [0])
    }

    @Test func randomAccessGivesTheSameCanvasesAsPlayingInOrder() throws {
        let provider = try coder.makeAnimatedImageProvider(for: Self.apng(), options: ImageDecodeOptions())
        for index in [3, 1, 2, 0, 2, 3, 1] {
            #expect(Self.pixels(try provider.frame(at: index)) == Self.expected[index], "frame \(index)")
        }
        #expect(throws: WebImageError.self) { try provider.frame(at: 4) }
    }

    @Test func preloadAllFramesDecodesEagerly() throws {
        var options = ImageDecodeOptions()
        options.preloadAllFrames = true
        let image = try coder.decode(Self.apng(), options: options)
        #expect(!image.isLazilyAnimated)
        #expect(try image.allFrames().map { Self.pixels($0.bitmap) } == Self.expected)
    }

    @Test func firstFrameOnlyGivesTheDefaultImage() throws {
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let still = try coder.decode(Self.apng(), options: options)
        #expect(!still.isAnimated)
        #expect(Self.pixels(still.bitmap) == Self.expected[0])
        let separate = try coder.decode(Self.apng(defaultImageIsFirstFrame: false), options: options)
        #expect(Self.pixels(separate.bitmap).allSatisfy { $0 == Self.color(Self.green) })
    }

    @Test func defaultImageOutsideTheAnimationIsNotAFrame() throws {
        let image = try coder.decode(Self.apng(defaultImageIsFirstFrame: false))
        #expect(image.frameCount == 4)
        #expect(Self.pixels(image.bitmap) == Self.expected[0])
        #expect(Self.pixels(try image.frame(at: 3).bitmap) == Self.expected[3])
    }

    @Test func thumbnailAppliesToEveryFrame() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 2, height: 2)
        let image = try coder.decode(Self.apng(), options: options)
        #expect(image.metadata.contains(.thumbnail))
        for index in 0..<4 { #expect(try image.frame(at: index).bitmap.size == PixelSize(width: 2, height: 1)) }
    }

    @Test func aFrameOutsideTheCanvasEndsTheAnimation() throws {
        var frames = Self.frames
        frames[2].x = 3  // 3 + 1 fits; make it not fit:
        frames[2].width = 2
        let image = try coder.decode(Self.apng(frames: frames))
        #expect(image.frameCount == 2)
    }

    @Test func animatedImagesRoundTripAsAPNG() throws {
        let source = TestImages.animated(frames: 3, width: 6, height: 5, loopCount: 4)
        let data = try coder.encode(source, as: .png)
        #expect(ImageFormat.detectDetails(data).isAnimated)
        let decoded = try coder.decode(data)
        #expect(decoded.frameCount == 3)
        #expect(decoded.loopCount == 4)
        #expect(decoded.frameDurations == [0.1, 0.1, 0.1])
        #expect(try decoded.allFrames().map(\.bitmap.bytes) == source.allFrames().map(\.bitmap.bytes))
        // First frame only: a plain PNG.
        var options = ImageEncodeOptions()
        options.firstFrameOnly = true
        let still = try coder.encode(source, as: .png, options: options)
        #expect(!ImageFormat.detectDetails(still).isAnimated)
        #expect(try coder.decode(still).bitmap == source.bitmap)
    }

    @Test func truncatedAnimationDecodesAsAPartialStill() throws {
        let data = Self.apng()
        let image = try coder.decode(Data(data.prefix(data.count - 30)))
        #expect(!image.isAnimated)
        #expect(image.metadata.contains(.incremental))
    }
}
