public import Foundation
import CJPEGShim
public import WebImageCore

/// The JPEG coder, on the system libjpeg-turbo (SDWebImage's ImageIO coder for JPEG).
///
/// Decoding reads baseline and progressive files, grayscale, RGB, YCbCr with every chroma
/// subsampling, CMYK and YCCK (Adobe-inverted when an Adobe marker says so), and restart
/// markers. By default the EXIF orientation (or, when EXIF has none, the XMP `tiff:Orientation`,
/// as ImageIO and Pillow read it) is applied to the pixels and the image is marked
/// ``/WebImageCore/ImageMetadata/orientationApplied``; `options.applyOrientation = false` keeps the stored
/// pixels.
///
/// Thumbnails (`thumbnailPixelSize`, `scaleDownLimitBytes`) use libjpeg's DCT scaling
/// (M/8 for M in 1...7, the smallest that still covers the target, without fancy upsampling,
/// as Pillow's `draft` does) so that a full-size bitmap is never made below 8/8, then resample
/// with Lanczos-3 to the exact size (in C, so that a large scale-down takes seconds, not
/// minutes, in a debug build). The pixel count is checked from the header against
/// `maxPixelCount` before any pixel memory is allocated. Truncated data decodes to what arrived, marked
/// ``/WebImageCore/ImageMetadata/incremental``; rows whose data is missing are transparent.
///
/// Progressive (multi-scan) files make libjpeg hold every DCT coefficient of the image (2 bytes
/// per sample of every component, whatever the output size) and pass over the whole image once
/// per scan, even when the scan's data is missing. So, on every path (full size, DCT-scaled
/// thumbnail, incremental decoder) and before libjpeg allocates anything, a multi-scan file is
/// refused with ``/WebImageCore/WebImageError/Code/imageTooLarge`` when:
/// - the coefficient buffer plus the output bitmap is over the decode's memory budget of
///   10 bytes per pixel of `maxPixelCount` (a full-size bitmap plus the coefficients of three
///   full-resolution components: 500 MB at 50 MP);
/// - it has more scans than its size justifies (`bytes / 256`, at least 100, at most 500);
/// - its scans together visit more blocks than 8 passes over the image plus 32 blocks per byte of
///   data (a few KB claiming 7000 x 7000 cannot justify 100 scans of 49 MP).
/// The marker walk that counts scans and blocks reads no entropy-coded data.
///
/// Encoding writes a 4:2:0 JPEG of the first frame at `compressionQuality` (0...1 mapped to
/// libjpeg quality 1...100; default 1 gives 100), compositing any alpha onto `backgroundColor`
/// (default white): baseline, or progressive with ``progressiveEncoding`` (or the request's
/// `WebImageContext.jpegProgressive`). The Huffman tables are made for each image
/// (libjpeg's `optimize_coding`, as Pillow's `optimize=True` and thumbor) unless
/// ``optimizesHuffmanTables`` is `false`: 1-7% fewer bytes for a 1024x768 photo at quality 80,
/// up to 30% for a thumbnail of a few thousand pixels, for 2.1-2.5 times libjpeg-turbo's
/// encoding time (a second pass over the coefficients, held in memory: 4.0-5.4 ms instead of
/// 1.9-2.2 ms at 1024x768). Progressive files are always optimised. `maxPixelSize`
/// downsizes first; `maxFileSize` lowers the quality step by step until the data fits (or
/// quality 1 is reached).
///
/// Thread-safety: stateless; call from any thread, concurrently.
public struct JPEGCoder: ProgressiveImageCoder {
    /// Creates the coder.
    /// - Parameters:
    ///   - progressiveEncoding: Write progressive JPEGs (default `false`: baseline).
    ///   - optimizesHuffmanTables: Make the Huffman tables for each image (default `true`);
    ///     `false` writes the standard tables: larger files in less than half the time.
    public init(progressiveEncoding: Bool = false, optimizesHuffmanTables: Bool = true) {
        self.progressiveEncoding = progressiveEncoding
        self.optimizesHuffmanTables = optimizesHuffmanTables
    }

    /// Whether ``encode(_:as:options:)`` writes progressive JPEGs when the request's
    /// `WebImageContext.jpegProgressive` does not say.
    public let progressiveEncoding: Bool

    /// Whether ``encode(_:as:options:)`` makes Huffman tables for each image (libjpeg's
    /// `optimize_coding`) instead of writing the standard ones; progressive output is optimised
    /// either way.
    public let optimizesHuffmanTables: Bool

    /// `true` for data that starts with a JPEG SOI marker (`FF D8 FF`).
    public func canDecode(_ data: Data) -> Bool {
        data.count >= 3 && data.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// Decodes a JPEG.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for empty, non-JPEG, corrupt data or data
    ///   truncated before the first scan; ``/WebImageCore/WebImageError/Code/imageTooLarge`` over the pixel limit.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(data.count) bytes are not JPEG data (no SOI marker)")
        }
        let output = try JPEGDecoding.decode(data, options: options)
        return output.image(scale: options.scaleFactor)
    }

    /// `true` for ``/WebImageCore/ImageFormat/jpeg``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jpeg
    }

    /// Encodes the first frame of `image` as JPEG, with its ``/WebImageCore/WebImage/colorProfile``
    /// (when it carries one) in APP2 markers.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format,
    ///   ``/WebImageCore/WebImageError/Code/encodingFailed`` if libjpeg fails.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "JPEGCoder cannot encode \(format)")
        }
        var bitmap = try EncodingPreparation.bitmap(of: image, maxPixelSize: options.maxPixelSize)
        if bitmap.hasAlpha {
            bitmap = EncodingPreparation.flattened(bitmap, onto: options.backgroundColor)
        }
        var quality = max(1, min(100, Int((options.compressionQuality * 100).rounded())))
        let profile = image.colorProfile?.data
        let progressive = options.context.jpegProgressive ?? progressiveEncoding
        while true {
            let data = try Self.encode(bitmap, quality: quality, progressive: progressive, optimizesHuffmanTables: optimizesHuffmanTables, iccProfile: profile)
            guard let limit = options.maxFileSize, data.count > limit, quality > 1 else { return data }
            quality = max(1, quality - max(5, quality / 5))
        }
    }

    static func encode(_ bitmap: Bitmap, quality: Int, progressive: Bool, optimizesHuffmanTables: Bool = true, iccProfile: Data? = nil) throws -> Data {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.width <= 65500, bitmap.height <= 65500 else {
            throw WebImageError(.encodingFailed, "JPEG cannot hold a \(bitmap.size) image (1...65500 per side)")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bitmap.bytes.withUnsafeBufferPointer { pixels in
            (iccProfile ?? Data()).withUnsafeBytes { icc in
                wi_jpeg_encode(pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), bitmap.bytesPerRow,
                               Int32(quality), progressive ? 1 : 0, optimizesHuffmanTables ? 1 : 0, 0, icc.bindMemory(to: UInt8.self).baseAddress, icc.count,
                               &output, &length, &message, message.count)
            }
        }
        guard status == WI_JPEG_OK, let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw WebImageError(.encodingFailed, "libjpeg failed to encode a \(bitmap.size) image: \(text)")
        }
        // The shim's buffer is malloc'ed and exactly `length` long: the Data takes it over.
        return Data(bytesNoCopy: output, count: length, deallocator: .free)
    }

    /// `true` while `data` could still be the start of a JPEG.
    public func canIncrementallyDecode(_ data: Data) -> Bool {
        data.count < 3 ? [0xFF, 0xD8, 0xFF].starts(with: data) : canDecode(data)
    }

    /// A decoder that shows the data received so far: rows of a baseline file as they arrive
    /// (the rest transparent), every scan of a progressive file as it arrives.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoder {
        RedecodingIncrementalDecoder(options: options, format: .jpeg) { data, options in
            let output = try JPEGDecoding.decode(data, options: options)
            return output.image(scale: options.scaleFactor)
        }
    }
}
