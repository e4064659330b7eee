public import Foundation
public import WebImageCore

/// The AVIF coder, on the system libavif (SDWebImage's `SDImageAVIFCoder` plug-in); written
/// against libavif 0.11 (Debian 12), and later versions.
///
/// Register it once at launch; it is then asked first for AVIF data, and `ImageManager.shared`
/// loads `.avif` URLs:
///
/// ```swift
/// CodersManager.shared.add(AVIFCoder())
/// ```
///
/// **Decoding** reads single images and image sequences (`avis`), 8, 10 and 12 bits, with or
/// without alpha, into RGBA8 with straight alpha (libavif's YUV to RGB conversion, libyuv's
/// when available).
/// - Limits come first: libavif is given `maxPixelCount` (`imageSizeLimit`, which also bounds
///   the AV1 decoder) and `maxFrameCount` (`imageCountLimit`) before it parses, and the parsed
///   container is checked against `maxPixelCount`, `maxFrameCount` and `maxTotalPixelCount`
///   (frames x source pixels) before any frame is decoded (``/WebImageCore/WebImageError/Code/imageTooLarge``).
///   A single image whose container claims a larger size than its AV1 sequence header allows
///   is refused before decoding (libavif 0.11 would allocate planes of the claimed size).
///   Truncated and corrupt data throw ``/WebImageCore/WebImageError/Code/badImageData`` saying which, with
///   libavif's own detail.
/// - `irot` and `imir` are applied to the pixels (libavif 0.11 only reports them): the image
///   comes out as it is meant to be seen. `clap` (crop), ICC profiles and EXIF are not applied:
///   pixels are taken as sRGB.
/// - Thumbnails (`thumbnailPixelSize`, `scaleDownLimitBytes`): libavif cannot decode at a
///   smaller size, so each frame is decoded at full size (after the pixel limit check, so at
///   most `maxPixelCount` pixels at a time), then resampled with Lanczos-3. They are marked
///   ``/WebImageCore/ImageMetadata/thumbnail``.
/// - Sequences: frames decode lazily through an ``/WebImageCore/AnimatedImage`` (random access restarts at
///   the nearest keyframe) unless `preloadAllFrames`; `firstFrameOnly` gives a still. Frame
///   durations are the file's (a frame that states none shows for 100 ms). libavif 0.11 reads no
///   repetition count, so a sequence's loop count is 0 (forever), as browsers play them.
/// - Not progressive: an AV1 frame decodes only once all of it has arrived (libavif's
///   experimental `allowIncremental` helps only grid images, cell by cell), so partial data
///   shows nothing until it is complete.
///
/// **Encoding** writes a still AVIF, or an image sequence for an animated image (durations in
/// milliseconds; libavif 0.11 writes no loop count, so players loop it forever);
/// `firstFrameOnly` writes a still.
/// - `compressionQuality` 1 (the default) is lossless: 4:4:4 with the identity matrix and
///   quantizer 0, every pixel back as given, alpha included. Below 1 it is lossy 4:2:0 with the
///   AV1 quantizer `(1 - quality) x 63` for color and alpha.
/// - ``speed`` (or the context's ``WebImageCore/WebImageContext/avifEncodingSpeed`` per request) trades
///   time for size: 0 (slowest, smallest) ... 10 (fastest).
/// - `maxPixelSize` downsizes first (aspect kept, Lanczos-3). `maxFileSize` applies to lossy
///   encoding: when the output is over it, a bisection over the qualities below finds the
///   highest (of 64 quantizer steps) whose output fits; if none fits, the worst quality's output
///   is returned. `backgroundColor` and `embedThumbnail` do not apply.
///
/// Thread-safety: a value with no shared state; call it from any thread, concurrently.
public struct AVIFCoder: AnimatedImageCoder {
    /// libavif's encoding speed when the context does not say: 0 (slowest) ... 10 (fastest).
    public let speed: Int
    /// The most threads libavif's AV1 decoder and encoder use for one image.
    public let threads: Int

    /// Creates the coder.
    /// - Parameters:
    ///   - speed: libavif's encoding speed, clamped to 0...10 (default 6, avifenc's default).
    ///   - threads: The most threads one decode or encode uses (default 1: images are usually
    ///     decoded many at a time, one per core, by the manager).
    public init(speed: Int = 6, threads: Int = 1) {
        self.speed = min(10, max(0, speed))
        self.threads = max(1, threads)
    }

    // MARK: Decoding

    /// `true` for data whose `ftyp` box names AVIF (`avif` or `avis`, as the major brand or,
    /// after `mif1`/`msf1`, a compatible one).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(data) == .avif
    }

    /// Decodes an AVIF: a still, or an image sequence (lazy unless `preloadAllFrames`).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not AVIF, truncated or
    ///   corrupt; ``/WebImageCore/WebImageError/Code/imageTooLarge`` over the options' limits.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let provider = try AVIFSequenceProvider(data: data, options: options, threads: threads)
        let metadata: ImageMetadata = provider.isThumbnail ? [.decoded, .thumbnail] : .decoded
        if provider.frameCount == 1 {
            return provider.color.marking(WebImage(bitmap: try provider.frame(at: 0), scale: options.scaleFactor, format: .avif, metadata: metadata))
        }
        // The total pixel limit was checked when parsing; preloading stays within it.
        return provider.color.marking(try WebImage(provider: provider, preloadAllFrames: options.preloadAllFrames, scale: options.scaleFactor, metadata: metadata))
    }

    /// Parses `data` and returns a provider that decodes frames on demand (a still AVIF gives
    /// a provider of one frame).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData``, ``/WebImageCore/WebImageError/Code/imageTooLarge``.
    public func makeAnimatedImageProvider(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageProvider {
        try AVIFSequenceProvider(data: data, options: options, threads: threads)
    }

    // MARK: Encoding

    /// `true` for ``/WebImageCore/ImageFormat/avif``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .avif
    }

    /// Encodes `image` as AVIF (an image sequence when it is animated and `firstFrameOnly` is
    /// not set), with its ``/WebImageCore/WebImage/colorProfile`` (when it carries one) in a
    /// `colr` box.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format,
    ///   ``/WebImageCore/WebImageError/Code/encodingFailed`` for a libavif failure.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "AVIFCoder cannot encode \(format)")
        }
        let speed = min(10, max(0, options.context.avifEncodingSpeed ?? speed))
        let sequence = image.isAnimated && !options.firstFrameOnly
        let frames: [ImageFrame]
        if sequence {
            frames = try image.allFrames().map { frame in
                ImageFrame(bitmap: try options.fitted(frame.bitmap), duration: frame.duration)
            }
        } else {
            frames = [ImageFrame(bitmap: try options.fitted(image.bitmap))]
        }
        let encode = { (quality: Double) throws -> Data in
            let settings = AVIFEncoding.Settings(quality: quality, speed: speed, threads: threads, iccProfile: image.colorProfile?.data)
            return sequence
                ? try AVIFEncoding.encodeSequence(frames, settings: settings)
                : try AVIFEncoding.encodeStill(frames[0].bitmap, settings: settings)
        }
        let quality = min(1, max(0, options.compressionQuality))
        let data = try encode(quality)
        guard let limit = options.maxFileSize, data.count > limit else { return data }
        // Step i is quality i / 63 (the quantizer 63 - i): the steps under the quality's quantizer.
        let steps = 63 - Int(AVIFEncoding.Settings(quality: quality, speed: 0, threads: 1).quantizer)
        return try ImageEncodeOptions.largestOutput(fitting: limit, steps: steps) { try encode(Double($0) / 63) }
    }
}
