import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import WebImageTransformers

/// Transforming a lazily decoded animation gives a lazily transformed one (issue 19): frame 0
/// now, frame n when it is read, from the source's frame n read without buffering.
@Suite(.onOwnThreads) struct LazyTransformTests {
    static let durations = [0.05, 0.0, 0.1, 0.2, 0.15]

    /// A lazy animation of 5 gradient frames that counts the frames its provider makes.
    static func source() throws -> (WebImage, GeneratedFramesProvider) {
        let (image, provider) = try GeneratedFramesProvider.image(pixelSize: PixelSize(width: 12, height: 10), durations: durations, loopCount: 4) { index in
            TestImages.gradient(width: 12, height: 10, seed: UInt8(30 * index + 7))
        }
        var scaled = image
        scaled.scale = 2
        scaled.extendedData = Data([7])
        return (scaled, provider)
    }

    /// The same frames, all held.
    static func eagerSource() throws -> WebImage {
        let frames = durations.indices.map { index in
            ImageFrame(bitmap: TestImages.gradient(width: 12, height: 10, seed: UInt8(30 * index + 7)), duration: durations[index])
        }
        return try WebImage(frames: frames, loopCount: 4, scale: 2, format: .gif)
    }

    @Test("frames are transformed when read, each from the source's frame read once and not buffered")
    func framesAreMadeOnDemand() throws {
        let (source, provider) = try Self.source()
        let calls = CallRecorder<PixelSize>()
        let filter = FilterTransformer(name: "count") { bitmap in
            calls.record(bitmap.size)
            return bitmap
        }
        let output = try filter.transform(source, forKey: "k")
        #expect(output.isLazilyAnimated && output.frameCount == 5)
        #expect(calls.count == 1)  // frame 0, the poster
        #expect(provider.requestedFrames == [0])
        _ = try output.frame(at: 3)
        #expect(calls.count == 2 && provider.requestedFrames == [0, 3])
        _ = try output.frame(at: 3)  // buffered by the transformed image
        #expect(calls.count == 2)
        _ = try output.frame(at: 4, buffering: false)
        _ = try output.frame(at: 4, buffering: false)  // not buffered: made again
        #expect(calls.count == 4 && provider.requestedFrames == [0, 3, 4, 4])
        guard case .animated(let animated) = source.storage else { Issue.record("source is not lazy"); return }
        #expect(animated.bufferedFrameCount == 1)  // the source's buffer never filled
    }

    @Test("a chain of transformers keeps frames, order, durations, stated durations, loop count, scale and extended data")
    func chainKeepsTheAnimation() throws {
        let (source, _) = try Self.source()
        let pipeline = PipelineTransformer([.flip(horizontal: true), .rotate(degrees: 90), .resize(to: PixelSize(width: 5, height: 6), mode: .fill)])
        let lazy = try pipeline.transform(source, forKey: "k")
        let eager = try pipeline.transform(try Self.eagerSource(), forKey: "k")
        guard case .transformed = lazy.storage else { Issue.record("not lazily transformed"); return }
        #expect(!eager.isLazilyAnimated)
        #expect(lazy.frameCount == 5 && lazy.loopCount == 4 && lazy.scale == 2)
        #expect(lazy.frameDurations == eager.frameDurations && lazy.statedFrameDurations == eager.statedFrameDurations)
        #expect(lazy.pixelSize == PixelSize(width: 5, height: 6) && lazy.extendedData == Data([7]))
        #expect(lazy.metadata.contains(.transformed) && lazy.format == .gif)
        for index in 0..<5 {
            #expect(try lazy.frame(at: index).bitmap == eager.frame(at: index).bitmap, "frame \(index)")
        }
    }

    @Test("a failure on a later frame comes when that frame is read, naming it")
    func laterFrameErrorsComeOnRead() throws {
        struct Odd: Error {}
        let (source, _) = try Self.source()
        let failing = FilterTransformer(name: "fails-on-2") { bitmap in
            if bitmap == TestImages.gradient(width: 12, height: 10, seed: 67) { throw Odd() }
            return bitmap
        }
        let output = try failing.transform(source, forKey: "k")
        _ = try output.frame(at: 1)
        let error = try #require(throws: WebImageError.self) { try output.frame(at: 2) }
        #expect(error.code == .transformFailed && error.message.contains("frame 2 of 5"))
        // A failure on frame 0 comes at once.
        let first = FilterTransformer(name: "fails") { _ in throw Odd() }
        #expect(throws: WebImageError.self) { try first.transform(source, forKey: "k") }
    }

    @Test("a frame that comes out in another size than frame 0 is a transform error")
    func frameSizesMustAgree() throws {
        let (source, _) = try Self.source()
        let crop = FilterTransformer(name: "uneven") { bitmap in
            bitmap == TestImages.gradient(width: 12, height: 10, seed: 97) ? try Bitmap(width: 3, height: 3) : bitmap
        }
        let output = try crop.transform(source, forKey: "k")
        let error = try #require(throws: WebImageError.self) { try output.frame(at: 3) }
        #expect(error.code == .transformFailed && error.message.contains("frame 3"))
    }

    @Test("its memory cost counts its buffered frames and the source's encoded data, not the source's poster; it has no encoded data")
    func memoryCostAndData() throws {
        let (source, provider) = try Self.source()
        let output = try FlippingTransformer(horizontal: true).transform(source, forKey: "k")
        guard case .transformed(let animated) = output.storage else { Issue.record("not lazily transformed"); return }
        #expect(animated.provider.animatedImageData.isEmpty)
        #expect(output.memoryCost == animated.bufferedBytes + provider.animatedImageData.count)
        #expect(output.memoryCost >= 12 * 10 * 4)  // its own poster
        // A transform of a transform counts the inner one's poster too: it keeps it.
        let twice = try FlippingTransformer(vertical: true).transform(output, forKey: "k2")
        guard case .transformed(let outer) = twice.storage else { Issue.record("not lazily transformed"); return }
        #expect(twice.memoryCost == outer.bufferedBytes + animated.posterFrame.byteCount + provider.animatedImageData.count)
    }

    @Test("the result keeps the source's frame provider, not the source image: the source's poster is freed with it")
    func sourceImageIsNotKept() throws {
        weak var sourceFrames: AnimatedImage?
        var output: WebImage?
        do {
            let (source, _) = try Self.source()
            guard case .animated(let animated) = source.storage else { Issue.record("source not lazy"); return }
            sourceFrames = animated
            output = try FlippingTransformer(horizontal: true).transform(source, forKey: "k")
        }
        #expect(sourceFrames == nil)
        // It still makes every frame, from the provider.
        let eager = try FlippingTransformer(horizontal: true).transform(try Self.eagerSource(), forKey: "k")
        let made = try #require(output)
        for index in 0..<5 {
            #expect(try made.frame(at: index).bitmap == eager.frame(at: index).bitmap)
        }
    }

    @Test("an animation whose frames are all held is transformed at once, every frame held")
    func heldFramesStayHeld() throws {
        let output = try FlippingTransformer(vertical: true).transform(try Self.eagerSource(), forKey: "k")
        #expect(!output.isLazilyAnimated && output.frameCount == 5)
    }
}
