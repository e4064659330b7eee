public import Foundation
public import WebImageCore

/// The HEIF coder: HEIC (HEVC in HEIF), other HEIF files and AVIF-in-HEIF, on the system
/// libheif (SDWebImage's `SDWebImageHEIFCoder` plug-in).
///
/// Register it once at launch:
///
/// ```swift
/// CodersManager.shared.add(HEIFCoder())
/// ```
///
/// **Decoding** reads the file's primary image into RGBA8 with straight alpha.
/// - The primary image's size, as displayed and as coded, is checked against
///   `options.maxPixelCount` before libheif decodes anything
///   (``/WebImageCore/WebImageError/Code/imageTooLarge``); libheif's own size limit is set from it too.
///   Truncated, corrupt and unsupported data throw ``/WebImageCore/WebImageError/Code/badImageData`` with
///   libheif's reason.
/// - The file's transformations are applied (`clap` crop, `irot` rotation, `imir` mirror): in
///   HEIF they are part of the image, not a hint, so `applyOrientation` does not turn them off.
/// - Alpha (an auxiliary image) is kept; 10- and 12-bit (HDR) images are reduced to 8 bits by
///   libheif. Color profiles are not applied: pixels are taken as sRGB.
/// - Thumbnails (`thumbnailPixelSize`, `scaleDownLimitBytes`): when ``usesEmbeddedThumbnails``
///   and the file stores a thumbnail at least as large as the request (iPhone photos store one
///   of 320 pixels or so), that small image is decoded and resampled instead of the full one;
///   otherwise the full image is decoded and resampled (Lanczos-3). Both are marked
///   ``/WebImageCore/ImageMetadata/thumbnail``.
/// - Image sequences (`msf1`, `hevs` brands): libheif 1.15 has no sequence API, so the primary
///   (still) image is decoded; a file with only a sequence track throws
///   ``/WebImageCore/WebImageError/Code/badImageData``.
/// - AVIF inside HEIF decodes when ``decodesAVIF`` and libheif has an AV1 decoder. The coder
///   added last to a ``/WebImageCore/CodersManager`` is asked first: add an AVIF coder after this one for it
///   to take AVIF.
///
/// **Encoding** writes HEIC with libheif's HEVC encoder (x265), when libheif has one
/// (``canEncode(to:)`` says so).
/// - `compressionQuality` 0...1 maps to libheif's quality 0...100 (lossy, 4:2:0 chroma).
/// - Alpha is written as an auxiliary image when the bitmap has alpha.
/// - `embedThumbnail` stores a thumbnail of at most ``embeddedThumbnailSide`` pixels.
/// - `maxPixelSize` downsizes first (aspect kept, Lanczos-3); `maxFileSize` lowers the quality
///   by bisection until the output fits (the quality-0 output if nothing fits).
/// - An animated image is written as its first frame (HEIC sequences need libheif 1.19+).
///
/// Thread-safety: a value with no shared state; call it from any thread, concurrently.
public struct HEIFCoder: ImageCoder {
    /// Whether thumbnail requests use a thumbnail stored in the file when it is large enough.
    public let usesEmbeddedThumbnails: Bool
    /// Whether AVIF files (AV1 in HEIF) are decoded too, when libheif has an AV1 decoder.
    public let decodesAVIF: Bool
    /// The side, in pixels, of the thumbnail that `embedThumbnail` stores.
    public let embeddedThumbnailSide: Int

    /// Creates the coder.
    /// - Parameters:
    ///   - usesEmbeddedThumbnails: Decode stored thumbnails for small requests (default `true`).
    ///   - decodesAVIF: Claim AVIF data as well (default `true`; only where libheif has an AV1
    ///     decoder).
    ///   - embeddedThumbnailSide: The largest side of an encoded thumbnail (default 320, at
    ///     least 16).
    public init(usesEmbeddedThumbnails: Bool = true, decodesAVIF: Bool = true, embeddedThumbnailSide: Int = 320) {
        self.usesEmbeddedThumbnails = usesEmbeddedThumbnails
        self.decodesAVIF = decodesAVIF
        self.embeddedThumbnailSide = max(16, embeddedThumbnailSide)
    }

    /// The version of the libheif the coder runs on (`"1.15.1"`).
    public static var libraryVersion: String { HEIFLibrary.version }

    // MARK: Decoding

    /// `true` for ISO media data whose `ftyp` brands say HEIC or HEIF (and AVIF, with
    /// ``decodesAVIF`` and an AV1 decoder in libheif).
    public func canDecode(_ data: Data) -> Bool {
        switch ImageFormat.detect(data) {
        case .heic, .heif: HEIFLibrary.decodesHEVC
        case .avif: decodesAVIF && HEIFLibrary.decodesAV1
        default: false
        }
    }

    /// Decodes the primary image of a HEIF file.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not HEIF (or AVIF without
    ///   ``decodesAVIF``), truncated, corrupt or needs a codec libheif lacks; ``/WebImageCore/WebImageError/Code/imageTooLarge`` over
    ///   `options.maxPixelCount`.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let format = ImageFormat.detect(data)
        guard format == .heic || format == .heif || format == .avif else {
            throw WebImageError(.badImageData, "\(data.count) bytes of data are not HEIF (no HEIC, HEIF or AVIF brand in an ftyp box)")
        }
        guard format != .avif || decodesAVIF else {
            throw WebImageError(.badImageData, "\(data.count) bytes of AVIF data: this HEIFCoder is made with decodesAVIF false")
        }
        let output = try HEIFDecoding.decode(data, options: options, embeddedThumbnails: usesEmbeddedThumbnails)
        let metadata: ImageMetadata = output.isThumbnail ? [.decoded, .thumbnail] : .decoded
        return output.color.marking(WebImage(bitmap: output.bitmap, scale: options.scaleFactor, format: format, metadata: metadata))
    }

    // MARK: Encoding

    /// `true` for ``/WebImageCore/ImageFormat/heic`` when libheif has an HEVC encoder.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .heic && HEIFLibrary.encodesHEVC
    }

    /// Encodes `image` (its first frame) as HEIC, with its ``/WebImageCore/WebImage/colorProfile``
    /// (when it carries one) in a `colr` box.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format or without an HEVC
    ///   encoder, ``/WebImageCore/WebImageError/Code/encodingFailed`` for an image HEIC cannot hold here (a
    ///   side over 16384) or a libheif failure.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            let reason = format == .heic ? "libheif \(HEIFLibrary.version) has no HEVC encoder" : "it writes only heic"
            throw WebImageError(.unsupportedFormat, "HEIFCoder cannot encode \(format): \(reason)")
        }
        let bitmap = try options.fitted(image.bitmap)
        let thumbnailSide = options.embedThumbnail ? embeddedThumbnailSide : nil
        let quality = Int((min(1, max(0, options.compressionQuality)) * 100).rounded())
        let encode = { (quality: Int) throws -> Data in
            try HEIFEncoding.encode(bitmap, settings: HEIFEncoding.Settings(quality: quality, thumbnailSide: thumbnailSide, iccProfile: image.colorProfile?.data))
        }
        let data = try encode(quality)
        guard let limit = options.maxFileSize, data.count > limit else { return data }
        return try ImageEncodeOptions.largestOutput(fitting: limit, steps: quality, encode)
    }
}
