import CWebP
import CWebPMux
import Foundation
import WebImageCore

/// Encoding with libwebp: stills through `WebPEncode`, animations through `WebPAnimEncoder`.
enum WebPEncoding {
    /// The largest side WebP can hold.
    static let maximumSide = 16383

    /// How to encode.
    struct Settings: Sendable {
        /// Lossless (VP8L, exact pixels: RGB under transparent pixels is kept) or lossy (VP8).
        var lossless: Bool
        /// 0...100: the lossy quality, or for lossless the effort spent on compression.
        var quality: Float
        /// libwebp's method, 0 (fastest) ... 6 (smallest).
        var method: Int
    }

    /// Encodes one bitmap as a still WebP.
    /// - Throws: ``WebImageError/Code/encodingFailed``.
    static func encodeStill(_ bitmap: Bitmap, settings: Settings) throws -> Data {
        try checkSize(bitmap.size)
        var config = try makeConfig(settings)
        var picture = try makePicture(bitmap)
        defer { WebPPictureFree(&picture) }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let succeeded = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture) != 0
        }
        guard succeeded, let memory = writer.mem else {
            throw WebImageError(.encodingFailed, "libwebp failed to encode a \(bitmap.size) image: \(WebPStatus.describe(picture.error_code))")
        }
        return Data(bytes: memory, count: writer.size)
    }

    /// Encodes frames as an animated WebP, taking them one at a time: frame `n` is asked for,
    /// imported into a `WebPPicture`, added and freed before frame `n + 1` is asked for.
    /// - Parameters:
    ///   - frameCount: Two or more.
    ///   - frame: Frame `n`; every frame of one size; durations are rounded to milliseconds (at
    ///     least 1 ms, at most 2^24 - 1).
    ///   - loopCount: 0 = forever; clamped to 0...65535.
    /// - Throws: ``WebImageError/Code/encodingFailed``; what `frame` throws.
    static func encodeAnimation(frameCount: Int, frame: (Int) throws -> ImageFrame, loopCount: Int, settings: Settings) throws -> Data {
        guard frameCount >= 1 else {
            throw WebImageError(.encodingFailed, "an animated WebP needs at least one frame")
        }
        var first: ImageFrame? = try frame(0)
        let size = first?.bitmap.size ?? PixelSize(width: 0, height: 0)
        try checkSize(size)
        var config = try makeConfig(settings)
        var animationOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&animationOptions) != 0 else {
            throw WebImageError(.encodingFailed, "libwebpmux does not match the headers the coder was built with")
        }
        animationOptions.anim_params.loop_count = Int32(min(65535, max(0, loopCount)))
        guard let encoder = WebPAnimEncoderNew(Int32(size.width), Int32(size.height), &animationOptions) else {
            throw WebImageError(.encodingFailed, "libwebp cannot make an animation encoder for \(size)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var timestamp = 0
        for index in 0..<frameCount {
            let current: ImageFrame
            if index == 0, let held = first {
                current = held
                first = nil
            } else {
                current = try frame(index)
            }
            guard current.bitmap.size == size else {
                throw WebImageError(.encodingFailed, "WebP frame \(index) is \(current.bitmap.size), frame 0 is \(size)")
            }
            var picture = try makePicture(current.bitmap)
            defer { WebPPictureFree(&picture) }
            guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
                throw WebImageError(.encodingFailed, "libwebp failed to add frame \(index) of \(frameCount) to an animation: \(lastError(encoder))")
            }
            timestamp += milliseconds(current.duration)
            guard timestamp < Int(Int32.max) else {
                throw WebImageError(.encodingFailed, "the animation of \(frameCount) frames is too long for WebP (over 2^31 ms)")
            }
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp failed to end an animation of \(frameCount) frames: \(lastError(encoder))")
        }
        var output = WebPData()
        WebPDataInit(&output)
        defer { WebPDataClear(&output) }
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes else {
            throw WebImageError(.encodingFailed, "libwebp failed to assemble an animation of \(frameCount) frames: \(lastError(encoder))")
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// A frame duration in whole milliseconds, at least 1 (a frame of 0 ms would be merged
    /// into the next one), at most WebP's 24-bit maximum.
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 1 }
        return min(0xFF_FFFF, max(1, Int((seconds * 1000).rounded())))
    }

    private static func checkSize(_ size: PixelSize) throws {
        guard size.width >= 1, size.height >= 1, size.width <= maximumSide, size.height <= maximumSide else {
            throw WebImageError(.encodingFailed, "WebP cannot hold a \(size) image (1...\(maximumSide) pixels per side)")
        }
    }

    private static func makeConfig(_ settings: Settings) throws -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp does not match the headers the coder was built with")
        }
        config.lossless = settings.lossless ? 1 : 0
        config.quality = min(100, max(0, settings.quality))
        config.method = Int32(min(6, max(0, settings.method)))
        // Lossless means every pixel back as given, RGB under transparent pixels included.
        config.exact = settings.lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp rejects the settings (lossless \(settings.lossless), quality \(settings.quality), method \(settings.method))")
        }
        return config
    }

    /// A picture holding `bitmap` as ARGB (libwebp converts to YUV itself for lossy encoding;
    /// lossless needs ARGB to be exact). Opaque bitmaps are imported without their alpha bytes.
    private static func makePicture(_ bitmap: Bitmap) throws -> WebPPicture {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp does not match the headers the coder was built with")
        }
        picture.use_argb = 1
        picture.width = Int32(bitmap.width)
        picture.height = Int32(bitmap.height)
        let imported = bitmap.bytes.withUnsafeBufferPointer { pixels in
            bitmap.hasAlpha
                ? WebPPictureImportRGBA(&picture, pixels.baseAddress, Int32(bitmap.bytesPerRow))
                : WebPPictureImportRGBX(&picture, pixels.baseAddress, Int32(bitmap.bytesPerRow))
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw WebImageError(.encodingFailed, "libwebp cannot take a \(bitmap.size) image (out of memory)")
        }
        return picture
    }

    private static func lastError(_ encoder: OpaquePointer) -> String {
        guard let message = WebPAnimEncoderGetError(encoder) else { return "no reason given" }
        return String(cString: message)
    }
}
