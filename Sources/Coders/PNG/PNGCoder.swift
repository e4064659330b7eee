public import Foundation
public import WebImageCore

/// The PNG and APNG coder, written in Swift over the system zlib (SDWebImage's ImageIO coder
/// for PNG plus its APNG coder).
///
/// **Why Swift over zlib and not libpng:** Debian's libpng has no APNG support, so frames would
/// need a second path anyway; libpng's error handling is setjmp-based (more C to carry); and
/// one streaming decoder in Swift gives every color type, bit depth, interlacing, APNG frames
/// and incremental rows with one set of bounds checks. Speed: complete, non-interlaced images
/// of up to 32 bits per pixel inflate in one call to the system libdeflate, about twice zlib's
/// speed, straight into the bitmap's buffer and are unfiltered there with SIMD code; partial
/// data, interlaced and 48/64-bit images stream through zlib a row at a time. Like Chrome, the decoder inflates raw deflate data and
/// does not verify the Adler-32 trailer or the IDAT/fdAT CRCs (the deflate stream's structure
/// guards the data; that saves a pass over it); every other chunk's CRC is verified.
///
/// Decoding: every color type and bit depth (1, 2, 4, 8, 16), PLTE and tRNS (palette alpha and
/// color keys), Adam7 interlacing; 16-bit samples are rounded to 8 bits. APNG: frames are
/// composited onto the canvas with their dispose (none, background, previous) and blend
/// (source, over) operations; delays of 10 ms or less show for 100 ms (browsers' rule; the delays as stated are in
/// ``/WebImageCore/WebImage/statedFrameDurations``); the loop count is `num_plays` (0 = forever). Animations decode lazily through an ``/WebImageCore/AnimatedImage``
/// unless `options.preloadAllFrames`; `options.firstFrameOnly` (or a PNG without acTL) gives the
/// default image as a still; an APNG whose one frame is not the default image shows that frame
/// as a still that keeps the loop count. The header's pixel count is checked against `maxPixelCount`
/// before any pixel memory is allocated. A still's thumbnail at most a quarter of the source on a
/// side (interlaced or not) is made from the rows as they are decoded: integer box means
/// (alpha-weighted), then Lanczos-3 on that intermediate, so no full-size bitmap is allocated;
/// larger thumbnails resample the full decode with Lanczos-3. To thumbnail a large file without
/// holding its bytes either, decode it with ``decode(contentsOf:options:)``, which reads it a piece at a time. Truncated data decodes to the rows that arrived (the
/// rest transparent), marked ``/WebImageCore/ImageMetadata/incremental``.
///
/// Encoding: 8-bit gray, RGB or RGBA, whichever holds the pixels exactly, at ``compressionLevel``
/// (`compressionQuality` does not apply: PNG is lossless); an animated image becomes an APNG
/// unless `options.firstFrameOnly`.
///
/// Thread-safety: stateless; call from any thread, concurrently.
public struct PNGCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// The zlib level used by ``encode(_:as:options:)``: 0 (store) ... 9 (smallest); default 6,
    /// zlib's and Pillow's default.
    public let compressionLevel: Int

    /// Creates the coder.
    /// - Parameter compressionLevel: The zlib level for encoding, clamped to 0...9 (default 6).
    public init(compressionLevel: Int = 6) {
        self.compressionLevel = max(0, min(9, compressionLevel))
    }

    /// `true` for data that starts with the PNG signature.
    public func canDecode(_ data: Data) -> Bool {
        data.count >= 8 && data.starts(with: PNGFile.signature)
    }

    /// Decodes a PNG (a still) or an APNG (an animation, lazy unless `preloadAllFrames`).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for corrupt data or data truncated before the
    ///   image data, ``/WebImageCore/WebImageError/Code/imageTooLarge`` over the pixel limit.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        try decode(data, options: options, allowAnimation: true)
    }

    func decode(_ data: Data, options: ImageDecodeOptions, allowAnimation: Bool) throws -> WebImage {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(data.count) bytes are not PNG data (no PNG signature)")
        }
        let (animatedFrames, defaultImageIsFirstFrame) = try data.withUnsafeBytes { raw -> (Int, Bool) in
            let file = try PNGDecoding.parse(raw, options: options)
            return (file.truncated ? 0 : file.frames.count, file.defaultImageIsFirstFrame)
        }
        if allowAnimation, !options.firstFrameOnly, animatedFrames == 1, !defaultImageIsFirstFrame {
            // The one frame of the animation is not the default image: show it, with its loop count.
            let provider = try APNGProvider(data: data, options: options)
            var metadata: ImageMetadata = provider.isThumbnail ? [.decoded, .thumbnail] : .decoded
            if provider.convertsColor { metadata.insert(.colorConverted) }
            var image = WebImage(bitmap: try provider.frame(at: 0), scale: options.scaleFactor, format: .png, metadata: metadata)
            image.loopCount = provider.loopCount
            image.colorProfile = provider.colorProfile
            return image
        }
        guard allowAnimation, !options.firstFrameOnly, animatedFrames > 1 else {
            return try PNGDecoding.decodeStill(data, options: options)
        }
        let provider = try APNGProvider(data: data, options: options)
        var metadata: ImageMetadata = provider.isThumbnail ? [.decoded, .thumbnail] : .decoded
        if provider.convertsColor { metadata.insert(.colorConverted) }
        var image = try WebImage(provider: provider, preloadAllFrames: options.preloadAllFrames, scale: options.scaleFactor, metadata: metadata)
        image.colorProfile = provider.colorProfile
        return image
    }

    /// `true` for ``/WebImageCore/ImageFormat/png``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .png
    }

    /// Encodes `image` as PNG, or as APNG when it is animated and `firstFrameOnly` is not set,
    /// with its ``/WebImageCore/WebImage/colorProfile`` (when it carries one) in an `iCCP` chunk.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format,
    ///   ``/WebImageCore/WebImageError/Code/encodingFailed`` if zlib fails.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "PNGCoder cannot encode \(format)")
        }
        let frames = EncodingPreparation.frames(of: image, options: options)
        return try PNGEncoding.encode(frames, loopCount: image.loopCount, level: compressionLevel, iccProfile: image.colorProfile?.data)
    }

    /// Parses `data` and returns a provider that decodes frames on demand (one frame for a PNG
    /// without animation).
    public func makeAnimatedImageProvider(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageProvider {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(data.count) bytes are not PNG data (no PNG signature)")
        }
        return try APNGProvider(data: data, options: options)
    }

    /// `true` while `data` could still be the start of a PNG.
    public func canIncrementallyDecode(_ data: Data) -> Bool {
        data.count < 8 ? PNGFile.signature.starts(with: data) : canDecode(data)
    }

    /// A decoder that shows the rows received so far (for an interlaced file, the passes so far),
    /// the first frame of an APNG until the data is complete.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoder {
        RedecodingIncrementalDecoder(options: options, format: .png) { data, options in
            try PNGCoder().decode(data, options: options, allowAnimation: true)
        }
    }
}
