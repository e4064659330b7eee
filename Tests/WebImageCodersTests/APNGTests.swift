import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// APNG frames built by hand (stored deflate), with the composited canvases worked out from the
/// APNG specification.
@Suite(.onOwnThreads) struct APNGTests {
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

    /// An `fcTL` chunk for `frame` with sequence number `sequence`.
    static func control(_ frame: FrameSpec, sequence: Int) -> [UInt8] {
        PNGBuilder.be32(sequence) + PNGBuilder.be32(frame.width) + PNGBuilder.be32(frame.height)
            + PNGBuilder.be32(frame.x) + PNGBuilder.be32(frame.y) + PNGBuilder.be16(frame.delay.0) + PNGBuilder.be16(frame.delay.1)
            + [frame.dispose, frame.blend]
    }

    /// A 4x2 APNG whose acTL declares one frame (played `plays` times) and whose default image
    /// (all green, in `idatChunks` IDAT chunks) is not part of the animation: the one frame (red
    /// over the canvas) follows, its data in `fdatChunks` fdAT chunks.
    static func oneFrameAfterADefaultImage(idatChunks: Int, fdatChunks: Int, plays: Int) -> Data {
        var png = PNGBuilder()
        png.header(width: 4, height: 2, bitDepth: 8, colorType: 6)
        png.chunk("acTL", PNGBuilder.be32(1) + PNGBuilder.be32(plays))
        let green = FrameSpec(x: 0, y: 0, width: 4, height: 2, pixel: Self.green, delay: (0, 0), dispose: 0, blend: 0)
        let red = FrameSpec(x: 0, y: 0, width: 4, height: 2, pixel: Self.red, delay: (1, 10), dispose: 0, blend: 0)
        func raw(_ frame: FrameSpec) -> [UInt8] {
            PNGBuilder.rawRows(Array(repeating: Array((0..<frame.width).map { _ in frame.pixel }.joined()), count: frame.height), bitDepth: 8)
        }
        png.imageData(raw(green), chunks: idatChunks)
        png.chunk("fcTL", control(red, sequence: 0))
        let stream = PNGBuilder.zlibStored(raw(red))
        let size = (stream.count + fdatChunks - 1) / fdatChunks
        for (index, start) in stride(from: 0, to: stream.count, by: size).enumerated() {
            png.chunk("fdAT", PNGBuilder.be32(index + 1) + Array(stream[start..<min(stream.count, start + size)]))
        }
        png.end()
        return png.data
    }

    /// acTL declares one frame and the default image is not part of the animation: the image
    /// is that frame (not the default image) and keeps acTL's loop count, eager or lazy; the
    /// provider says the same. Also with the default image split over IDATs and the frame over
    /// fdATs. `firstFrameOnly` still gives the default image.
    @Test("a single frame after a default image outside the animation is the image", arguments: [(1, 1), (3, 4)])
    func singleFrameOutsideTheDefaultImage(chunks: (idat: Int, fdat: Int)) throws {
        let data = Self.oneFrameAfterADefaultImage(idatChunks: chunks.idat, fdatChunks: chunks.fdat, plays: 3)
        let red = Self.color(Self.red)
        for preload in [false, true] {
            var options = ImageDecodeOptions()
            options.preloadAllFrames = preload
            let image = try coder.decode(data, options: options)
            #expect(image.frameCount == 1)
            #expect(image.loopCount == 3, "preload \(preload)")
            #expect(Self.pixels(image.bitmap).allSatisfy { $0 == red }, "preload \(preload)")
        }
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.frameCount == 1 && provider.loopCount == 3)
        #expect(Self.pixels(try provider.frame(at: 0)).allSatisfy { $0 == red })
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 2, height: 2)
        let thumbnail = try coder.decode(data, options: options)
        #expect(thumbnail.metadata.contains(.thumbnail) && thumbnail.bitmap.size == PixelSize(width: 2, height: 1))
        #expect(thumbnail.bitmap[0, 0] == red)
        options = ImageDecodeOptions()
        options.firstFrameOnly = true
        #expect(Self.pixels(try coder.decode(data, options: options).bitmap).allSatisfy { $0 == Self.color(Self.green) })
    }

    /// An fcTL before acTL (both before IDAT) still makes the default image frame 0, as browsers
    /// read it.
    @Test func aFrameControlBeforeTheAnimationControlIsRead() throws {
        var png = PNGBuilder()
        png.header(width: 4, height: 2, bitDepth: 8, colorType: 6)
        png.chunk("fcTL", Self.control(Self.frames[0], sequence: 0))
        png.chunk("acTL", PNGBuilder.be32(Self.frames.count) + PNGBuilder.be32(2))
        func raw(_ frame: FrameSpec) -> [UInt8] {
            PNGBuilder.rawRows(Array(repeating: Array((0..<frame.width).map { _ in frame.pixel }.joined()), count: frame.height), bitDepth: 8)
        }
        png.imageData(raw(Self.frames[0]))
        var sequence = 1
        for frame in Self.frames.dropFirst() {
            png.chunk("fcTL", Self.control(frame, sequence: sequence))
            png.chunk("fdAT", PNGBuilder.be32(sequence + 1) + PNGBuilder.zlibStored(raw(frame)))
            sequence += 2
        }
        png.end()
        let image = try coder.decode(png.data)
        #expect(image.frameCount == 4)
        #expect(image.loopCount == 2)
        #expect(image.frameDurations == [0.1, 0.1, 0.05, 3])
        for index in 0..<4 {
            #expect(Self.pixels(try image.frame(at: index).bitmap) == Self.expected[index], "frame \(index)")
        }
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
