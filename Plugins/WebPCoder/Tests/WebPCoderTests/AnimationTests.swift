import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebPCoder

/// Animated WebP: frames, loop count, durations, blending and disposal (pixels computed by hand
/// and checked against libwebp's own `WebPAnimDecoder`), lazy and eager frames, thumbnails.
@Suite(.onOwnThreads) struct AnimationTests {
    let coder = WebPCoder(lossless: true)

    static let blue = RGBAColor(red: 0, green: 0, blue: 255, alpha: 255)
    static let green = RGBAColor(red: 0, green: 255, blue: 0, alpha: 255)
    static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Four frames on an 8x8 canvas that use every blending and disposal combination:
    /// 0. opaque blue over the whole canvas (blend, keep);
    /// 1. a 4x4 half-transparent red square at (2, 2), blended, then disposed to background;
    /// 2. a 2x2 opaque green square at (0, 0), not blended;
    /// 3. a 6x6 white square of alpha 51 at (2, 2), blended over the cleared hole and the blue;
    /// 4. a 4x4 square of transparent-or-opaque pixels at (4, 4), NOT blended (replaces alpha).
    static func handMadeAnimation() throws -> Data {
        try MuxBuilder.animation(width: 8, height: 8, loopCount: 3, frames: [
            .init(bitmap: TestImages.solid(blue, width: 8, height: 8), milliseconds: 40),
            .init(bitmap: TestImages.solid(RGBAColor(red: 255, green: 0, blue: 0, alpha: 128), width: 4, height: 4), x: 2, y: 2, milliseconds: 250, disposeToBackground: true),
            .init(bitmap: TestImages.solid(green, width: 2, height: 2), milliseconds: 5, blend: false),
            .init(bitmap: TestImages.solid(RGBAColor(red: 255, green: 255, blue: 255, alpha: 51), width: 6, height: 6), x: 2, y: 2, milliseconds: 1000),
            .init(bitmap: Pixels.make(width: 4, height: 4) { x, _ in x < 2 ? clear : RGBAColor(red: 9, green: 99, blue: 199, alpha: 255) }, x: 4, y: 4, blend: false),
        ])
    }

    /// The canvas after each frame of ``handMadeAnimation()``, worked out by hand:
    /// red 128 over opaque blue: a = 128 + 255 * 127 / 255 = 255; r = 255 * 128 / 255 = 128,
    /// b = 255 * 127 / 255 = 127. White alpha 51 over transparent: itself. Over opaque blue:
    /// a = 255, r = g = 255 * 51 / 255 = 51, b = 51 + 204 = 255.
    static func expectedFrames() -> [Bitmap] {
        let inSquare = { (x: Int, y: Int, x0: Int, y0: Int, size: Int) in x >= x0 && x < x0 + size && y >= y0 && y < y0 + size }
        let frame0 = TestImages.solid(blue, width: 8, height: 8)
        let frame1 = Pixels.make(width: 8, height: 8) { x, y in
            inSquare(x, y, 2, 2, 4) ? RGBAColor(red: 128, green: 0, blue: 127, alpha: 255) : blue
        }
        let frame2 = Pixels.make(width: 8, height: 8) { x, y in
            if inSquare(x, y, 0, 0, 2) { return green }
            return inSquare(x, y, 2, 2, 4) ? clear : blue
        }
        let frame3 = Pixels.make(width: 8, height: 8) { x, y in
            if inSquare(x, y, 0, 0, 2) { return green }
            if inSquare(x, y, 2, 2, 4) { return RGBAColor(red: 255, green: 255, blue: 255, alpha: 51) }
            return inSquare(x, y, 2, 2, 6) ? RGBAColor(red: 51, green: 51, blue: 255, alpha: 255) : blue
        }
        let frame4 = Pixels.make(width: 8, height: 8) { x, y in
            if inSquare(x, y, 4, 4, 4) { return x < 6 ? clear : RGBAColor(red: 9, green: 99, blue: 199, alpha: 255) }
            return frame3[x, y]
        }
        return [frame0, frame1, frame2, frame3, frame4]
    }

    @Test func blendingAndDisposalGiveTheHandComputedPixels() throws {
        let image = try coder.decode(try Self.handMadeAnimation())
        #expect(image.frameCount == 5)
        #expect(image.loopCount == 3)
        #expect(image.pixelSize == PixelSize(width: 8, height: 8))
        #expect(image.isLazilyAnimated)
        #expect(image.hasAlpha)
        for (index, expected) in Self.expectedFrames().enumerated() {
            let frame = try image.frame(at: index).bitmap
            // Frame 3's white-over-blue rounds once; everything else is exact.
            #expect(Pixels.maxDifference(frame, expected) <= 1, "frame \(index)")
        }
    }

    @Test func compositingMatchesLibwebpsAnimationDecoder() throws {
        let data = try Self.handMadeAnimation()
        let reference = try ReferenceAnimationDecoder.decode(data)
        let image = try coder.decode(data)
        #expect(image.frameCount == reference.frames.count)
        #expect(image.loopCount == reference.loopCount)
        for index in 0..<reference.frames.count {
            #expect(Pixels.maxDifference(try image.frame(at: index).bitmap, reference.frames[index]) <= 1, "frame \(index)")
        }
    }

    @Test func durationsAreMillisecondsWithShortDelaysShownForATenth() throws {
        let image = try coder.decode(try Self.handMadeAnimation())
        // 40 ms, 250 ms, 5 ms (<= 10 ms: 100 ms as in browsers), 1000 ms, 100 ms.
        #expect(image.frameDurations == [0.04, 0.25, 0.1, 1.0, 0.1])
        // What the file states, for `webimage info` and re-encoding.
        #expect(image.statedFrameDurations == [0.04, 0.25, 0.005, 1.0, 0.1])
        #expect(try coder.decode(try Self.handMadeAnimation(), options: { var options = ImageDecodeOptions(); options.firstFrameOnly = true; return options }()).statedFrameDurations == [0])
    }

    @Test(arguments: [[4, 0, 3, 1, 2], [2, 2, 0, 4], [1, 3, 4, 0]])
    func randomAccessInAnyOrderGivesTheSameFrames(_ order: [Int]) throws {
        let data = try Self.handMadeAnimation()
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        let expected = Self.expectedFrames()
        for index in order {
            #expect(Pixels.maxDifference(try provider.frame(at: index), expected[index]) <= 1, "frame \(index) in order \(order)")
        }
    }

    @Test func framesCanBeAskedForFromManyTasksAtOnce() async throws {
        let provider = try coder.makeAnimatedImageProvider(for: try Self.handMadeAnimation(), options: ImageDecodeOptions())
        let expected = Self.expectedFrames()
        let worst = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var worst = 0
                    for step in 0..<20 {
                        let index = (task * 3 + step * 7) % 5
                        worst = max(worst, Pixels.maxDifference(try provider.frame(at: index), expected[index]))
                    }
                    return worst
                }
            }
            return try await group.reduce(0, max)
        }
        #expect(worst <= 1)
    }

    @Test func keyframesLetLaterFramesRenderWithoutTheEarlierOnes() throws {
        // Frame 2 follows a frame disposed to background after a full opaque frame: every frame
        // but 1 is fully opaque and covers the canvas, so each is a keyframe and renders alone.
        let colors = (0..<6).map { RGBAColor(red: UInt8($0 * 40), green: 80, blue: 160, alpha: 255) }
        let data = try MuxBuilder.animation(width: 6, height: 4, frames: colors.map { .init(bitmap: TestImages.solid($0, width: 6, height: 4)) })
        let provider = try coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        for index in [5, 0, 3, 1, 4, 2] {
            #expect(try provider.frame(at: index) == TestImages.solid(colors[index], width: 6, height: 4), "frame \(index)")
        }
    }

    @Test func roundTripThroughTheAnimationEncoder() throws {
        let frames = (0..<4).map { index in
            ImageFrame(bitmap: TestImages.solid(RGBAColor(red: UInt8(index * 60), green: 100, blue: 200), width: 12, height: 10), duration: [0.1, 0.25, 0.5, 0.04][index])
        }
        let source = try WebImage(frames: frames, loopCount: 7)
        let data = try coder.encode(source, as: .webp)
        #expect(ImageFormat.detectDetails(data).isAnimated)
        let decoded = try coder.decode(data)
        #expect(decoded.frameCount == 4)
        #expect(decoded.loopCount == 7)
        #expect(decoded.frameDurations == [0.1, 0.25, 0.5, 0.04])
        for index in 0..<4 {
            #expect(try decoded.frame(at: index).bitmap.bytes == frames[index].bitmap.bytes, "frame \(index)")
        }
        // libwebp's reference decoder reads the same file the same way.
        let reference = try ReferenceAnimationDecoder.decode(data)
        #expect(reference.timestamps == [100, 350, 850, 890])
        #expect(reference.loopCount == 7)
    }

    @Test func lossyAnimationRoundTripsWithinTolerance() throws {
        let source = TestImages.animated(frames: 3, width: 16, height: 16, loopCount: 0)
        let data = try WebPCoder(lossless: false).encode(source, as: .webp)
        let decoded = try coder.decode(data)
        #expect(decoded.frameCount == 3)
        #expect(decoded.loopCount == 0)
        for index in 0..<3 {
            #expect(Pixels.maxDifference(try decoded.frame(at: index).bitmap, try source.frame(at: index).bitmap) <= 3, "frame \(index)")
        }
    }

    @Test func preloadAllFramesDecodesEagerly() throws {
        var options = ImageDecodeOptions()
        options.preloadAllFrames = true
        let image = try coder.decode(try Self.handMadeAnimation(), options: options)
        #expect(!image.isLazilyAnimated)
        #expect(image.frameCount == 5)
        #expect(image.loopCount == 3)
        let frames = try image.allFrames()
        for (index, expected) in Self.expectedFrames().enumerated() {
            #expect(Pixels.maxDifference(frames[index].bitmap, expected) <= 1, "frame \(index)")
        }
    }

    @Test func preloadAllFramesStaysLazyPastThePixelLimit() throws {
        var options = ImageDecodeOptions()
        options.preloadAllFrames = true
        options.maxPixelCount = 64 * 4  // the canvas fits, all five frames together do not
        let image = try coder.decode(try Self.handMadeAnimation(), options: options)
        #expect(image.isLazilyAnimated)
        #expect(image.frameCount == 5)
    }

    @Test func firstFrameOnlyGivesAStill() throws {
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let image = try coder.decode(try Self.handMadeAnimation(), options: options)
        #expect(!image.isAnimated)
        #expect(image.loopCount == nil)
        #expect(image.bitmap == Self.expectedFrames()[0])
    }

    @Test func thumbnailsResampleEveryCompositedFrame() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 4, height: 4)
        let image = try coder.decode(try Self.handMadeAnimation(), options: options)
        #expect(image.pixelSize == PixelSize(width: 4, height: 4))
        #expect(image.metadata == [.decoded, .thumbnail])
        #expect(image.frameCount == 5)
        // Each frame is the full-size composite resampled by Core's Lanczos-3.
        for (index, full) in Self.expectedFrames().enumerated() {
            let expected = try full.resampled(to: PixelSize(width: 4, height: 4), filter: .lanczos3)
            #expect(Pixels.maxDifference(try image.frame(at: index).bitmap, expected) <= 1, "frame \(index)")
        }
        for index in 0..<5 {
            #expect(try image.frame(at: index).bitmap.size == PixelSize(width: 4, height: 4))
        }
    }

    @Test func scaleDownLimitCountsEveryFrame() throws {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 5 * 4 * 4 * 4  // five frames of 4x4
        let image = try coder.decode(try Self.handMadeAnimation(), options: options)
        #expect(image.pixelSize == PixelSize(width: 4, height: 4))
        #expect(image.metadata.contains(.thumbnail))
    }

    @Test func canvasIsCheckedAgainstThePixelLimit() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 63
        let error = try #require(throws: WebImageError.self) { try coder.decode(try Self.handMadeAnimation(), options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("8x8"))
        #expect(throws: WebImageError.self) { try coder.makeAnimatedImageProvider(for: try Self.handMadeAnimation(), options: options) }
    }

    @Test func providerReportsItsFramesAndRefusesIndicesOutOfRange() throws {
        let provider = try coder.makeAnimatedImageProvider(for: try Self.handMadeAnimation(), options: ImageDecodeOptions())
        #expect(provider.format == .webp)
        #expect(provider.frameCount == 5)
        #expect(provider.loopCount == 3)
        #expect(provider.pixelSize == PixelSize(width: 8, height: 8))
        #expect(provider.duration(at: 1) == 0.25)
        #expect(provider.duration(at: 9) == 0)
        for index in [-1, 5] {
            let error = try #require(throws: WebImageError.self) { try provider.frame(at: index) }
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func truncatedAnimationSaysTruncated() throws {
        let data = try Self.handMadeAnimation()
        for length in [30, 60, data.count / 2, data.count - 3] {
            let error = try #require(throws: WebImageError.self) { try coder.decode(data.prefix(length)) }
            #expect(error.code == .badImageData)
            #expect(error.message.contains("truncated"), "\(length): \(error.message)")
        }
    }

    @Test func aCorruptFrameFailsThatFrameWithAClearError() throws {
        // Overwrite the last frame's lossless bitstream after its 5-byte header with 0xFF: the
        // container still parses (it reads only the header), the pixel data does not decode.
        let data = try Self.handMadeAnimation()
        var bytes = [UInt8](data)
        let lastVP8L = try #require(Self.offsets(of: "VP8L", in: bytes).last)
        #expect(bytes[lastVP8L + 8] == 0x2F)
        let size = Int(bytes[lastVP8L + 4]) | Int(bytes[lastVP8L + 5]) << 8
        for index in lastVP8L + 8 + 5..<lastVP8L + 8 + size { bytes[index] = 0xFF }
        let image = try coder.decode(Data(bytes))  // lazy: frame 0 is fine
        #expect(image.frameCount == 5)
        let error = try #require(throws: WebImageError.self) { try image.frame(at: 4) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("frame 4"), "\(error.message)")
        // The frames before it still render.
        #expect(Pixels.maxDifference(try image.frame(at: 3).bitmap, Self.expectedFrames()[3]) <= 1)
    }

    static func offsets(of fourCC: String, in bytes: [UInt8]) -> [Int] {
        let needle = Array(fourCC.utf8)
        return (0..<max(0, bytes.count - 3)).filter { Array(bytes[$0..<$0 + 4]) == needle }
    }
}
