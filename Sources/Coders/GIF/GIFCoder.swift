public import Foundation
public import WebImageCore

/// The GIF coder, in Swift (SDWebImage's GIF coder).
///
/// Decoding reads GIF87a and GIF89a: global and local color tables, transparency, interlaced
/// images, disposal methods 0-3 (2 clears to transparent, as browsers do, not to the background
/// color), the first NETSCAPE2.0 (or ANIMEXTS1.0) loop count (0 = forever; `nil` when the file has
/// none: browsers then play it once). Frame delays are in hundredths of a second; delays of
/// 10 ms or less show for 100 ms, as in browsers (the delays as stated are in
/// ``/WebImageCore/WebImage/statedFrameDurations``). Animations decode lazily through an
/// ``/WebImageCore/AnimatedImage`` unless `options.preloadAllFrames`; `options.firstFrameOnly` (or a single
/// image) gives a still. The logical screen and every image are checked against
/// `maxPixelCount` before any allocation; images reaching past the screen are clipped; data
/// that ends early leaves the missing pixels transparent and the image marked
/// ``/WebImageCore/ImageMetadata/incremental``.
///
/// Encoding writes GIF89a: median-cut palettes (see ``encode(_:as:options:)``) and LZW; an
/// animated image becomes an animated GIF unless `options.firstFrameOnly`.
///
/// Thread-safety: stateless; call from any thread, concurrently.
public struct GIFCoder: AnimatedImageCoder {
    /// Creates the coder.
    public init() {}

    /// `true` for data that starts with `GIF87a` or `GIF89a`.
    public func canDecode(_ data: Data) -> Bool {
        data.count >= 6 && (data.starts(with: Array("GIF87a".utf8)) || data.starts(with: Array("GIF89a".utf8)))
    }

    /// Decodes a GIF: a still for one image, else an animation (lazy unless `preloadAllFrames`).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not GIF or has no image,
    ///   ``/WebImageCore/WebImageError/Code/imageTooLarge`` over the pixel limit.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(data.count) bytes are not GIF data (no GIF87a or GIF89a signature)")
        }
        let provider = try GIFProvider(data: data, options: options)
        var metadata: ImageMetadata = .decoded
        if provider.isThumbnail { metadata.insert(.thumbnail) }
        if provider.isTruncated { metadata.insert(.incremental) }
        if provider.convertsColor { metadata.insert(.colorConverted) }
        if provider.frameCount == 1 {
            return WebImage(bitmap: try provider.frame(at: 0), scale: options.scaleFactor, format: .gif, metadata: metadata)
        }
        return try WebImage(provider: provider, preloadAllFrames: options.preloadAllFrames, scale: options.scaleFactor, metadata: metadata)
    }

    /// `true` for ``/WebImageCore/ImageFormat/gif``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .gif
    }

    /// Encodes `image` as GIF89a (animated when it is animated and `firstFrameOnly` is not set).
    /// Colors are reduced per frame by median cut to 256 (255 plus a transparent index when the
    /// frame has pixels with alpha under 128: GIF transparency is on or off), without dithering.
    /// `compressionQuality` does not apply.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format,
    ///   ``/WebImageCore/WebImageError/Code/encodingFailed`` for an image GIF cannot hold.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "GIFCoder cannot encode \(format)")
        }
        let frames = EncodingPreparation.frames(of: image, options: options)
        return try GIFEncoding.encode(frames, loopCount: image.loopCount)
    }

    /// Parses `data` and returns a provider that decodes frames on demand.
    public func makeAnimatedImageProvider(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageProvider {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(data.count) bytes are not GIF data (no GIF87a or GIF89a signature)")
        }
        return try GIFProvider(data: data, options: options)
    }
}
