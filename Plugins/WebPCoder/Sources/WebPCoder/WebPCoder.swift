public import Foundation
public import WebImageCore
import WebImageColor

/// The WebP coder, on the system libwebp (SDWebImage's `SDImageWebPCoder` plug-in).
///
/// Register it once at launch; it is then asked first for WebP data, and `ImageManager.shared`
/// loads `.webp` URLs:
///
/// ```swift
/// CodersManager.shared.add(WebPCoder())
/// ```
///
/// **Decoding** reads lossy (VP8), lossless (VP8L), alpha (ALPH) and animated (ANIM/ANMF)
/// files into RGBA8 with straight alpha.
/// - The header is read first and the image (for an animation, the canvas) is checked against
///   `options.maxPixelCount` before any pixel memory is allocated
///   (``/WebImageCore/WebImageError/Code/imageTooLarge``). Truncated and corrupt data throw
///   ``/WebImageCore/WebImageError/Code/badImageData`` with a message that says which (a truncated still is
///   not shown partially here; the incremental decoder does that).
/// - Thumbnails (`thumbnailPixelSize`, `scaleDownLimitBytes`) of stills come from libwebp's
///   scaled decoding, which hits the exact size the options ask for: a full-size bitmap is
///   never made. They are marked ``/WebImageCore/ImageMetadata/thumbnail``.
/// - Animations: frames are composited on the canvas (blending "over" or not, disposal "none"
///   or "to background", which clears to transparent: the specification makes the ANIM
///   background color a hint, and libwebp's own animation decoder ignores it too). Durations are in milliseconds;
///   10 ms or less shows for 100 ms, as in browsers and SDWebImage. The loop count is the
///   file's (0 = forever). Frames decode lazily through an ``/WebImageCore/AnimatedImage`` (random access
///   restarts at the nearest keyframe) unless `preloadAllFrames`; `firstFrameOnly` gives a
///   still. Animated thumbnails composite at full size, then resample each frame with
///   Lanczos-3 (compositing scaled frames would leave seams at fractional offsets).
///   `preloadAllFrames` is honoured while all the frames together stay within
///   `maxPixelCount`; past that, the frames stay lazy (a few KB of data can describe
///   thousands of large frames).
/// - ICC profiles, EXIF and XMP chunks are not read: pixels are taken as sRGB and no EXIF
///   orientation is applied (libwebp applies none either).
///
/// **Encoding** writes lossy (``lossless`` `false`, the default, as SDWebImage) or lossless
/// WebP; the context's ``WebImageCore/WebImageContext/webPLossless`` overrides ``lossless`` per request.
/// - `compressionQuality` 0...1 maps to libwebp's quality 0...100 (for lossless, the effort
///   spent on making the file small). Lossless output is exact: every pixel comes back as given,
///   the color under fully transparent pixels included. Lossy output keeps alpha exactly
///   (lossless alpha plane) and drops it for opaque images.
/// - An animated image becomes an animated WebP (`WebPAnimEncoder`) with its loop count (`nil`
///   is written as 0, forever, as the GIF coder does) and frame durations rounded to
///   milliseconds (at least 1 ms); `firstFrameOnly` writes a still. libwebp merges a frame
///   identical to the one before into it (one frame, the two durations summed).
/// - `maxPixelSize` downsizes first (aspect kept, Lanczos-3). `maxFileSize` applies to lossy
///   encoding: when the output at `compressionQuality` is over it, a bisection over the whole
///   qualities below finds one, q, whose output fits while that of q + 1 does not (about seven
///   encodes; sizes grow with quality only roughly, so q is not always the very highest that
///   fits). If even quality 0 does not fit, the quality-0 output is returned. Lossless output
///   is returned whatever its size. `backgroundColor` and `embedThumbnail` do not apply.
///
/// Thread-safety: a value with no shared state; call it from any thread, concurrently.
public struct WebPCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// Whether ``encode(_:as:options:)`` writes lossless WebP when the context does not say.
    public let lossless: Bool
    /// libwebp's encoding method: 0 (fastest) ... 6 (slowest, smallest files).
    public let method: Int

    /// Creates the coder.
    /// - Parameters:
    ///   - lossless: Encode losslessly unless the context says otherwise (default `false`: lossy).
    ///   - method: libwebp's encoding method, clamped to 0...6 (default 4, libwebp's default).
    public init(lossless: Bool = false, method: Int = 4) {
        self.lossless = lossless
        self.method = min(6, max(0, method))
    }

    // MARK: Decoding

    /// `true` for data that starts with the WebP signature (`RIFF`, 4 bytes, `WEBP`).
    public func canDecode(_ data: Data) -> Bool {
        WebPHeader.hasSignature(data)
    }

    /// Decodes a WebP: a still, or an animation (lazy unless `preloadAllFrames`).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not WebP, truncated or
    ///   corrupt; ``/WebImageCore/WebImageError/Code/imageTooLarge`` over `options.maxPixelCount`.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        guard let header = try WebPHeader.read(data) else {
            throw WebImageError(.badImageData, "WebP data of \(data.count) bytes is truncated (the header is incomplete)")
        }
        try header.checkLimit(options, byteCount: data.count)
        guard header.isComplete else {
            throw WebImageError(.badImageData, "WebP data of \(data.count) bytes is truncated (it ends inside the headers)")
        }
        if header.isAnimated {
            return try decodeAnimation(data, options: options)
        }
        let size = options.targetPixelSize(for: header.size)
        var bitmap = try WebPStillDecoding.decode(data, header: header, size: size)
        let metadata: ImageMetadata = size == header.size ? .decoded : [.decoded, .thumbnail]
        // The ICCP profile to sRGB, or kept (the framework's ColorConversion: lcms2).
        let color = ColorConversion.plan(for: WebPColorProfile.read(data), options: options)
        color.apply(to: &bitmap)
        return color.marking(WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .webp, metadata: metadata))
    }

    private func decodeAnimation(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let provider = try WebPAnimationProvider(data: data, options: options)
        let metadata: ImageMetadata = provider.isThumbnail ? [.decoded, .thumbnail] : .decoded
        if provider.frameCount == 1 {
            return provider.color.marking(WebImage(bitmap: try provider.frame(at: 0), scale: options.scaleFactor, format: .webp, metadata: metadata))
        }
        let framePixels = provider.pixelSize.pixelCount ?? Int.max
        let (allPixels, overflow) = framePixels.multipliedReportingOverflow(by: provider.frameCount)
        let preload = options.preloadAllFrames && !overflow && allPixels <= options.maxPixelCount
        return provider.color.marking(try WebImage(provider: provider, preloadAllFrames: preload, scale: options.scaleFactor, metadata: metadata))
    }

    /// Parses `data` and returns a provider that decodes frames on demand (a still WebP gives
    /// a provider of one frame).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData``, ``/WebImageCore/WebImageError/Code/imageTooLarge``.
    public func makeAnimatedImageProvider(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageProvider {
        try WebPAnimationProvider(data: data, options: options)
    }

    // MARK: Progressive decoding

    /// `true` while `data` could still be the start of a WebP file.
    public func canIncrementallyDecode(_ data: Data) -> Bool {
        WebPHeader.couldStartWebP(data)
    }

    /// A decoder that shows the data received so far: rows of a still as they arrive (through
    /// libwebp's `WebPIDecoder`, given only the new bytes each time), the first frame of an
    /// animation once it is complete, and the full decode with the last chunk.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoder {
        WebPIncrementalDecoder.make(options: options) { data, options in try decode(data, options: options) }
    }

    // MARK: Encoding

    /// `true` for ``/WebImageCore/ImageFormat/webp``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .webp
    }

    /// Encodes `image` as WebP (animated when it is animated and `firstFrameOnly` is not set).
    /// An animation's frames are read, handed to libwebp's `WebPAnimEncoder` and dropped one at
    /// a time, so a lazily decoded (or lazily transformed) animation is never held whole.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format,
    ///   ``/WebImageCore/WebImageError/Code/encodingFailed`` for an image WebP cannot hold (a side over 16383)
    ///   or a libwebp failure.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "WebPCoder cannot encode \(format)")
        }
        let lossless = options.context.webPLossless ?? lossless
        let animated = image.isAnimated && !options.firstFrameOnly
        // Frames are made one at a time as the encoder takes them (a lazy animation's frame n is
        // decoded, or transformed, then, and dropped once libwebp has it).
        let frame = { (index: Int) throws -> ImageFrame in
            let frame = try image.frame(at: index, buffering: false)
            return ImageFrame(bitmap: try options.fitted(frame.bitmap), duration: frame.duration)
        }
        let quality = Float(min(1, max(0, options.compressionQuality)) * 100)
        let encode = { (quality: Float) throws -> Data in
            let settings = WebPEncoding.Settings(lossless: lossless, quality: quality, method: method)
            return animated
                ? try WebPEncoding.encodeAnimation(frameCount: image.frameCount, frame: frame, loopCount: image.loopCount ?? 0, settings: settings)
                : try WebPEncoding.encodeStill(try options.fitted(image.bitmap), settings: settings)
        }
        // A kept colour profile goes into an ICCP chunk of every output tried.
        let encodeTagged = { (quality: Float) throws -> Data in
            let data = try encode(quality)
            guard let profile = image.colorProfile?.data else { return data }
            return try WebPColorProfile.embedding(profile, in: data)
        }
        let data = try encodeTagged(quality)
        guard let limit = options.maxFileSize, data.count > limit, !lossless else { return data }
        return try ImageEncodeOptions.largestOutput(fitting: limit, steps: Int(quality.rounded(.down))) { try encodeTagged(Float($0)) }
    }
}
