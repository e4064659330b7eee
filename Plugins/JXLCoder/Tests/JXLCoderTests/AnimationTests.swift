import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import JXLCoder

/// Animations written by the coder (lossless) and read back: frames, durations, loop count,
/// lazy random access, and the frame and per-image limits checked from the headers.
@Suite(.onOwnThreads) struct AnimationTests {
    static let coder = JXLCoder(lossless: true)
    static let durations = [0.1, 0.25, 0.04, 0.5]

    static func animation(width: Int = 48, height: Int = 32, loopCount: Int = 2) throws -> (WebImage, Data) {
        let frames = try durations.enumerated().map { index, duration in
            ImageFrame(bitmap: try Pictures.detailed(width: width, height: height, alpha: index % 2 == 0, seed: index * 9), duration: duration)
        }
        let image = try WebImage(frames: frames, loopCount: loopCount)
        return (image, try coder.encode(image, as: .jpegXL))
    }

    @Test func roundTripAndRandomAccess() throws {
        let (source, data) = try Self.animation()
        let image = try Self.coder.decode(data)
        #expect(image.frameCount == 4)
        #expect(image.loopCount == 2)
        #expect(image.isLazilyAnimated)
        #expect(image.hasAlpha)
        #expect(image.frameDurations == Self.durations)
        for index in [3, 0, 2, 1, 3, 3, 0] {
            #expect(try image.frame(at: index).bitmap.bytes == source.frame(at: index).bitmap.bytes, "frame \(index)")
        }
        var options = ImageDecodeOptions()
        options.preloadAllFrames = true
        let preloaded = try Self.coder.decode(data, options: options)
        #expect(!preloaded.isLazilyAnimated)
        #expect(try preloaded.allFrames().map(\.bitmap.bytes) == source.allFrames().map(\.bitmap.bytes))
    }

    @Test func loopForever() throws {
        let (_, data) = try Self.animation(loopCount: 0)
        #expect(try Self.coder.decode(data).loopCount == 0)
    }

    @Test func firstFrameOnly() throws {
        let (source, data) = try Self.animation()
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        options.maxFrameCount = 1
        let image = try Self.coder.decode(data, options: options)
        #expect(image.frameCount == 1)
        #expect(image.bitmap.bytes == (try source.frame(at: 0).bitmap.bytes))
        // The encoder's firstFrameOnly writes a still.
        var encodeOptions = ImageEncodeOptions()
        encodeOptions.firstFrameOnly = true
        #expect(try Self.coder.decode(Self.coder.encode(source, as: .jpegXL, options: encodeOptions)).frameCount == 1)
    }

    /// Frames are counted from the headers and refused past `maxFrameCount`.
    @Test func frameLimit() throws {
        let (_, data) = try Self.animation()
        var options = ImageDecodeOptions()
        options.maxFrameCount = 4
        #expect(try Self.coder.decode(data, options: options).frameCount == 4)
        options.maxFrameCount = 3
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("4 or more frames"), "\(error.message)")
        #expect(throws: WebImageError.self) { try Self.coder.makeAnimatedImageProvider(for: data, options: options) }
    }

    /// Frames x source pixels against `maxTotalPixelCount`; a thumbnail does not escape it
    /// (every frame is decoded at full size first).
    @Test func totalPixelLimit() throws {
        let (_, data) = try Self.animation()
        var options = ImageDecodeOptions()
        options.maxTotalPixelCount = 4 * 48 * 32 - 1
        let error = try #require(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        #expect(error.code == .imageTooLarge)
        options.thumbnailPixelSize = PixelSize(width: 24, height: 24)
        #expect(throws: WebImageError.self) { try Self.coder.decode(data, options: options) }
        options.maxTotalPixelCount = 4 * 48 * 32
        let thumbnail = try Self.coder.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 24, height: 16))
        #expect(thumbnail.metadata.contains(.thumbnail))
        #expect(try thumbnail.frame(at: 3).bitmap.size == PixelSize(width: 24, height: 16))
    }

    @Test func provider() throws {
        let (source, data) = try Self.animation()
        let provider = try Self.coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.frameCount == 4)
        #expect(provider.format == .jpegXL)
        #expect(provider.pixelSize == PixelSize(width: 48, height: 32))
        #expect(provider.duration(at: 1) == 0.25)
        #expect(try provider.frame(at: 2).bytes == source.frame(at: 2).bitmap.bytes)
        #expect(throws: WebImageError.self) { try provider.frame(at: 4) }
        // Truncated animations give errors, never a crash, at every tenth of the file.
        for tenth in 1..<10 {
            let cut = data.prefix(data.count * tenth / 10)
            do {
                let image = try Self.coder.decode(cut)
                for index in 0..<image.frameCount { _ = try? image.frame(at: index) }
            } catch is WebImageError {}
        }
    }
}
