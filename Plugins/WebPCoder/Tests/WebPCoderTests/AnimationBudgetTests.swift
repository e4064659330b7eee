import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import WebPCoder

/// Issue 19 for WebP: an animation is refused from its container's header when its frames
/// together have too many source pixels or when it has too many frames, before any frame is
/// decoded; and the encoder takes the frames one at a time.
@Suite(.onOwnThreads) struct AnimationBudgetTests {
    static func options(maxTotal: Int = ImageDecodeOptions.defaultMaxTotalPixelCount, maxFrames: Int = 10_000) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1 << 28
        options.maxTotalPixelCount = maxTotal
        options.maxFrameCount = maxFrames
        return options
    }

    /// `frames` tiny frames on a `side` x `side` canvas: a few hundred bytes that claim
    /// frames x side² pixels.
    static func sparse(side: Int, frames: Int) throws -> Data {
        try MuxBuilder.animation(width: side, height: side, frames: (0..<frames).map { index in
            .init(bitmap: TestImages.solid(RGBAColor(red: UInt8(index * 40), green: 0, blue: 0), width: 2, height: 2))
        })
    }

    @Test("frames x canvas over maxTotalPixelCount is refused from the header, before any frame is decoded")
    func totalPixelsAreRefused() throws {
        // 2 x 16000² = 512 MP: each frame is within the 256 MP per-frame limit, the image is not.
        let data = try Self.sparse(side: 16000, frames: 2)
        #expect(data.count < 2_000)
        for attempt in [
            { _ = try WebPCoder().decode(data, options: Self.options(maxTotal: 1 << 28)) },
            { _ = try WebPCoder().makeAnimatedImageProvider(for: data, options: Self.options(maxTotal: 1 << 28)) },
        ] {
            let error = try #require(throws: WebImageError.self) { try attempt() }
            #expect(error.code == .imageTooLarge)
            #expect(error.message.contains("2 frames of 16000x16000") && error.message.contains("pixels per image"))
        }
    }

    @Test("the budget counts source pixels: at the limit it decodes, one pixel under it is refused")
    func budgetEdge() throws {
        let data = try Self.sparse(side: 100, frames: 4)  // 40,000 pixels in all
        let image = try WebPCoder().decode(data, options: Self.options(maxTotal: 40_000))
        #expect(image.frameCount == 4)
        #expect(throws: WebImageError.self) { try WebPCoder().decode(data, options: Self.options(maxTotal: 39_999)) }
        // A thumbnail is decoded from full-size frames, so it counts the same.
        var thumbnail = Self.options(maxTotal: 39_999)
        thumbnail.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        #expect(throws: WebImageError.self) { try WebPCoder().decode(data, options: thumbnail) }
    }

    @Test("more frames than maxFrameCount is refused; the first frame alone is not")
    func frameCountIsRefused() throws {
        let data = try Self.sparse(side: 8, frames: 5)
        let error = try #require(throws: WebImageError.self) { try WebPCoder().decode(data, options: Self.options(maxFrames: 4)) }
        #expect(error.code == .imageTooLarge && error.message.contains("5 frames") && error.message.contains("limit of 4 frames"))
        #expect(try WebPCoder().decode(data, options: Self.options(maxFrames: 5)).frameCount == 5)
        var first = Self.options(maxFrames: 4)
        first.firstFrameOnly = true
        #expect(try WebPCoder().decode(data, options: first).frameCount == 1)
    }

    @Test("the encoder takes a lazy animation's frames one at a time, in order, buffering none")
    func encoderStreams() throws {
        let colors: [RGBAColor] = [.init(red: 200, green: 10, blue: 10), .init(red: 10, green: 200, blue: 10), .init(red: 10, green: 10, blue: 200), .white]
        let (image, provider) = try GeneratedFramesProvider.image(pixelSize: PixelSize(width: 6, height: 4), durations: [0.1, 0.05, 0.2, 0.03], loopCount: 3, format: .webp) { index in
            TestImages.solid(colors[index], width: 6, height: 4)
        }
        guard case .animated(let animated) = image.storage else { Issue.record("not lazy"); return }
        let data = try WebPCoder(lossless: true).encode(image, as: .webp)
        #expect(provider.requestedFrames == [0, 1, 2, 3])
        #expect(animated.bufferedFrameCount == 1)
        let decoded = try WebPCoder().decode(data, options: ImageDecodeOptions())
        #expect(decoded.frameCount == 4 && decoded.loopCount == 3)
        #expect(decoded.frameDurations == [0.1, 0.05, 0.2, 0.03])
        for index in 0..<4 {
            #expect(try decoded.frame(at: index).bitmap[2, 2] == colors[index], "frame \(index)")
        }
        // A lazily transformed animation encodes as the same transform of held frames.
        let flip: @Sendable (Bitmap) throws -> Bitmap = { bitmap in
            var out = bitmap
            out[0, 0] = .init(red: 1, green: 2, blue: 3)
            return out
        }
        let held = try WebImage(frames: image.allFrames(), loopCount: 3, format: .webp)
        let lazyData = try WebPCoder(lossless: true).encode(image.mappingFrames(transformerKey: "dot", flip), as: .webp)
        let heldData = try WebPCoder(lossless: true).encode(held.mappingFrames(transformerKey: "dot", flip), as: .webp)
        #expect(lazyData == heldData)
    }
}
