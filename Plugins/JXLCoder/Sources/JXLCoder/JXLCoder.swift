import CJXL
public import Foundation
public import WebImageCore

/// The JPEG XL coder, on the system libjxl (SDWebImage's `SDImageJPEGXLCoder` plug-in).
///
/// Register it once at launch; it is then asked first for JPEG XL data, and
/// `ImageManager.shared` loads `.jxl` URLs:
///
/// ```swift
/// CodersManager.shared.add(JXLCoder())
/// ```
///
/// **Decoding** reads bare codestreams and the ISO BMFF container, still and animated, lossy and
/// lossless, with or without alpha, of any bit depth (16-bit and float included), into RGBA8 with
/// straight alpha (libjxl converts and un-premultiplies).
/// - The basic info is read first and one frame's stored size is checked against
///   `options.maxPixelCount`, and frames x that size against `options.maxTotalPixelCount`,
///   before libjxl is given any output buffer (``/WebImageCore/WebImageError/Code/imageTooLarge``). An
///   animation's frames are first counted by a pass over the frame headers alone (no pixel is
///   decoded), which stops past `options.maxFrameCount`. Truncated and corrupt data throw
///   ``/WebImageCore/WebImageError/Code/badImageData``.
/// - The orientation in the codestream is applied (by libjxl) unless `applyOrientation` is
///   `false`. The image is not marked ``/WebImageCore/ImageMetadata/orientationApplied``: libjxl reports the
///   upright size and no orientation once it applies one, so the coder cannot tell.
/// - Thumbnails (`thumbnailPixelSize`, `scaleDownLimitBytes`): JPEG XL has no scaled decoding,
///   so the image is decoded at full size (after the limit checks) and resampled with
///   Lanczos-3; marked ``/WebImageCore/ImageMetadata/thumbnail``.
/// - Animations: libjxl blends each frame onto the canvas (frames of zero duration are merged
///   into the next one, as a viewer shows them). Durations are the file's ticks x tps
///   denominator / numerator, played as stated; the loop count is the file's (0 = forever).
///   Frames decode lazily through an ``/WebImageCore/AnimatedImage`` (in order, one decoder continues; any
///   other index rewinds and skips) unless `preloadAllFrames`; `firstFrameOnly` gives a still.
/// - Pixels are given as libjxl outputs them: sRGB for lossy (XYB) files; for lossless files in
///   another color space, that space's values (ICC profiles are not applied, as the WebP coder).
///
/// **Progressive decoding** (``makeIncrementalDecoder(options:)``) shows what libjxl can render
/// from the bytes so far (`JxlDecoderFlushImage`: the 1:8 DC image of a lossy frame first,
/// then groups and passes as they arrive); an animation shows its first frame.
///
/// **Encoding** writes lossy (``lossless`` `false`, the default) or lossless JPEG XL; the
/// context's ``WebImageCore/WebImageContext/jxlLossless`` overrides ``lossless`` per request.
/// - `compressionQuality` 0...1 is taken as cjxl's quality 0...100 and mapped to a Butteraugli
///   distance the way cjxl maps it (1 -> 0.1, 0.9 -> 1.0 "visually lossless", 0.3 -> 6.4, up to 25).
///   Lossless output is exact (every channel of every pixel). Opaque images are written
///   without an alpha channel.
/// - An animated image becomes a JPEG XL animation (1000 ticks per second) with its loop count
///   (`nil` is written as 0, forever) and its durations rounded to milliseconds (at least 1);
///   `firstFrameOnly` writes a still.
/// - `maxPixelSize` downsizes first (aspect kept, Lanczos-3). `maxFileSize`, `backgroundColor`
///   and `embedThumbnail` do not apply.
///
/// Thread-safety: a value with no shared state; call it from any thread, concurrently.
public struct JXLCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// Whether ``encode(_:as:options:)`` writes lossless JPEG XL when the context does not say.
    public let lossless: Bool
    /// libjxl's encoding effort: 1 (fastest) ... 9 (slowest, smallest files).
    public let effort: Int
    /// Threads libjxl uses for one decode or encode (its thread runner); 1 (the default): the
    /// calling thread only, as the other coders (an image loader decodes many images at once).
    public let threads: Int

    /// Creates the coder.
    /// - Parameters:
    ///   - lossless: Encode losslessly unless the context says otherwise (default `false`: lossy).
    ///   - effort: libjxl's effort, clamped to 1...9 (default 7, libjxl's and cjxl's default).
    ///   - threads: Worker threads per decode or encode, at least 1 (default 1: no thread runner).
    public init(lossless: Bool = false, effort: Int = 7, threads: Int = 1) {
        self.lossless = lossless
        self.effort = min(9, max(1, effort))
        self.threads = max(1, threads)
    }

    // MARK: Decoding

    /// `true` for data that starts with a JPEG XL codestream (`FF 0A`) or container signature.
    public func canDecode(_ data: Data) -> Bool {
        let signature = Self.signature(data)
        return signature == JXL_SIG_CODESTREAM || signature == JXL_SIG_CONTAINER
    }

    /// Decodes a JPEG XL file: a still, or an animation (lazy unless `preloadAllFrames`).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not JPEG XL, truncated or
    ///   corrupt; ``/WebImageCore/WebImageError/Code/imageTooLarge`` over the options' limits.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        guard !data.isEmpty else { throw WebImageError(.badImageData, "JPEG XL data is empty (0 bytes)") }
        guard let (bitmap, info, color) = try JXLStillDecoding.decode(data, options: options, threads: threads) else {
            return try decodeAnimation(data, options: options)
        }
        let size = options.targetPixelSize(for: info.outputSize)
        let metadata: ImageMetadata = size == info.outputSize ? .decoded : [.decoded, .thumbnail]
        return color.marking(WebImage(bitmap: try JXLStillDecoding.fitted(bitmap, to: size), scale: options.scaleFactor, format: .jpegXL, metadata: metadata))
    }

    private func decodeAnimation(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let provider = try JXLAnimationProvider(data: data, options: options, threads: threads)
        let metadata: ImageMetadata = provider.isThumbnail ? [.decoded, .thumbnail] : .decoded
        // The colour plan is known once the first frame is rendered (libjxl's colour encoding).
        if provider.frameCount == 1 {
            let image = WebImage(bitmap: try provider.frame(at: 0), scale: options.scaleFactor, format: .jpegXL, metadata: metadata)
            return provider.color.marking(image)
        }
        let image = try WebImage(provider: provider, preloadAllFrames: options.preloadAllFrames, scale: options.scaleFactor, metadata: metadata)
        return provider.color.marking(image)
    }

    /// Parses `data` (headers only, frames counted and checked against the limits) and returns
    /// a provider that decodes frames on demand (a still gives a provider of one frame).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData``, ``/WebImageCore/WebImageError/Code/imageTooLarge``.
    public func makeAnimatedImageProvider(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageProvider {
        guard !data.isEmpty else { throw WebImageError(.badImageData, "JPEG XL data is empty (0 bytes)") }
        return try JXLAnimationProvider(data: data, options: options, threads: threads)
    }

    // MARK: Progressive decoding

    /// `true` while `data` could still be the start of a JPEG XL file.
    public func canIncrementallyDecode(_ data: Data) -> Bool {
        let signature = Self.signature(data)
        return signature == JXL_SIG_CODESTREAM || signature == JXL_SIG_CONTAINER || (signature == JXL_SIG_NOT_ENOUGH_BYTES && !data.isEmpty)
    }

    /// A decoder that shows the data received so far: what libjxl can render of the first
    /// frame (its DC image, then groups and passes), and the full decode with the last chunk.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoder {
        JXLIncrementalDecoder.make(options: options, threads: threads) { data, options in try decode(data, options: options) }
    }

    // MARK: Encoding

    /// `true` for ``/WebImageCore/ImageFormat/jpegXL``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jpegXL
    }

    /// Encodes `image` as JPEG XL (an animation when it is animated and `firstFrameOnly` is not
    /// set), with its ``/WebImageCore/WebImage/colorProfile`` (when it carries one) as the colour
    /// encoding.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format,
    ///   ``/WebImageCore/WebImageError/Code/encodingFailed`` for a libjxl failure.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "JXLCoder cannot encode \(format)")
        }
        let frames: [ImageFrame]
        if image.isAnimated && !options.firstFrameOnly {
            frames = try image.allFrames().map { frame in
                ImageFrame(bitmap: try options.fitted(frame.bitmap), duration: frame.duration)
            }
        } else {
            frames = [ImageFrame(bitmap: try options.fitted(image.bitmap))]
        }
        let settings = JXLEncoding.Settings(
            lossless: options.context.jxlLossless ?? lossless,
            distance: JXLEncoding.distance(quality: min(1, max(0, options.compressionQuality)) * 100),
            effort: effort,
            threads: threads,
            iccProfile: image.colorProfile?.data
        )
        return try JXLEncoding.encode(frames, loopCount: image.loopCount ?? 0, settings: settings)
    }

    /// libjxl's reading of the first bytes of `data`.
    private static func signature(_ data: Data) -> JxlSignature {
        data.prefix(16).withUnsafeBytes { raw in
            JxlSignatureCheck(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        }
    }
}
