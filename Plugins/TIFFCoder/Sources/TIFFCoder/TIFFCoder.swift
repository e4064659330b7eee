public import Foundation
public import WebImageCore
import CTIFF
import WebImageColor

/// The TIFF coder, on the system libtiff 4.5+ (SDWebImage reads TIFF through ImageIO; this is
/// the Linux counterpart).
///
/// Register it once at launch; it is then asked first for TIFF data:
///
/// ```swift
/// CodersManager.shared.add(TIFFCoder())
/// ```
///
/// **Decoding** reads the data in memory through `TIFFClientOpenExt` (never a temporary file):
/// strips and tiles; 1, 2, 4, 8 and 16 bits per sample (and 9 to 15, such as 12-bit scans, in
/// contiguous strips); grey (min-is-black and min-is-white), palette, RGB, YCbCr, Lab (D50, to
/// sRGB as colour-managed readers do) and CMYK (8 and 16 bits); associated and unassociated
/// alpha. The result is RGBA8 with straight alpha, as every coder of the framework gives.
/// - **Limits first.** Every directory's header is read before any pixel memory is allocated:
///   a page over ``/WebImageCore/ImageDecodeOptions/maxPixelCount``, pages over
///   ``/WebImageCore/ImageDecodeOptions/maxFrameCount`` or together over
///   ``/WebImageCore/ImageDecodeOptions/maxTotalPixelCount`` give
///   ``/WebImageCore/WebImageError/Code/imageTooLarge``. libtiff's own single allocations are capped too.
/// - **Errors.** libtiff's errors and warnings never reach stderr: each TIFF is opened with
///   handlers of its own (`TIFFOpenOptionsSetErrorHandlerExtR`), and a failure is a
///   ``/WebImageCore/WebImageError/Code/badImageData`` that says which step failed with libtiff's message
///   (`"TIFF data of 900 bytes: reading row 12 of 64 (64x64) failed: ... Read error on strip 3"`).
/// - **Pages** are frames: every page of the main directory chain that is not a
///   reduced-resolution preview, each of duration 0, with no loop count. Pages of another size
///   than the first are resampled to its size (a ``/WebImageCore/WebImage``'s frames share one size).
///   `firstFrameOnly` gives the first page. ``readProperties(of:)`` reports the page count.
/// - **Orientation** (tag 274) is applied to the pixels unless `applyOrientation` is `false`
///   (``/WebImageCore/ImageMetadata/orientationApplied``).
/// - **Colour.** An embedded ICC profile (tag 34675) converts RGB to sRGB or is kept, as
///   `colorProfileHandling` says; CMYK is converted to sRGB through its profile (lcms2), or with
///   the plain formula when it has none.
/// - **Thumbnails** (`thumbnailPixelSize`, `scaleDownLimitBytes`): a reduced-resolution image
///   of the first page (a SubIFD or a main-chain directory with NewSubfileType bit 0) at least as
///   large as the thumbnail is decoded instead when there is one; otherwise rows are box-reduced
///   as they are decoded (8-bit strips one scanline at a time, other layouts one strip or tile
///   row at a time), so a thumbnail of a huge strip TIFF never holds the full image.
///
/// **Encoding** writes 8-bit RGB, or RGBA with unassociated alpha when the image has alpha,
/// compressed with ``compression`` (deflate by default) and the horizontal predictor; an
/// animation becomes one page per frame unless `firstFrameOnly`; `maxPixelSize` downsizes first;
/// a kept colour profile is embedded. `compressionQuality` and `maxFileSize` do not apply
/// (the output is lossless).
///
/// Thread-safety: a value with no shared state; call it from any thread, concurrently.
public struct TIFFCoder: ImageHeaderReader {
    /// How ``TIFFCoder/encode(_:as:options:)`` compresses strips.
    public enum Compression: Sendable, Hashable {
        /// Deflate (zlib, compression 8), with the horizontal predictor: the default.
        case deflate
        /// LZW (compression 5), with the horizontal predictor: read by every TIFF reader.
        case lzw
        /// No compression.
        case none
    }

    /// The compression of the TIFFs this coder writes.
    public let compression: Compression

    /// Creates the coder.
    /// - Parameter compression: How encoded strips are compressed (default ``Compression/deflate``).
    public init(compression: Compression = .deflate) {
        self.compression = compression
    }

    // MARK: Decoding

    /// `true` for data that starts with a TIFF header (`II*\0` or `MM\0*`; BigTIFF too).
    public func canDecode(_ data: Data) -> Bool {
        guard data.count >= 4 else { return false }
        let b = [UInt8](data.prefix(4))
        return (b[0] == 0x49 && b[1] == 0x49 && (b[2] == 0x2A || b[2] == 0x2B) && b[3] == 0)
            || (b[0] == 0x4D && b[1] == 0x4D && b[2] == 0 && (b[3] == 0x2A || b[3] == 0x2B))
    }

    /// Decodes a TIFF: its pages as frames (the first only with `firstFrameOnly`).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not TIFF, truncated
    ///   or corrupt, or a layout libtiff cannot read; ``/WebImageCore/WebImageError/Code/imageTooLarge`` over
    ///   the options' limits (checked from the headers before any allocation).
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "data of \(data.count) bytes is not a TIFF (no II*/MM* header)")
        }
        return try TIFFHandle.read(data, maxAllocation: Self.maxAllocation(options)) { handle in
            let layout = try TIFFLayout.read(handle, maxDirectories: max(1, options.maxFrameCount) + 64, stopQuietly: options.firstFrameOnly)
            let pages = options.firstFrameOnly ? [layout.pages[0]] : layout.pages
            try Self.checkLimits(pages, options: options, byteCount: data.count)
            let first = pages[0]
            let firstShown = options.applyOrientation ? first.orientedSize : first.size
            let target = options.targetPixelSize(for: firstShown, frameCount: pages.count)
            var frames: [ImageFrame] = []
            var metadata: ImageMetadata = .decoded
            var plan = ColorPlan.none
            for (number, page) in pages.enumerated() {
                let (bitmap, pagePlan, applied, convertedCMYK) = try decodePage(page, number: number, layout: layout, handle: handle, target: target, options: options)
                if number == 0 { plan = pagePlan }
                if applied { metadata.insert(.orientationApplied) }
                if convertedCMYK { metadata.insert(.colorConverted) }
                frames.append(ImageFrame(bitmap: bitmap, duration: 0))
            }
            if target != firstShown { metadata.insert(.thumbnail) }
            if frames.count == 1 {
                return plan.marking(WebImage(bitmap: frames[0].bitmap, scale: options.scaleFactor, format: .tiff, metadata: metadata))
            }
            return plan.marking(try WebImage(frames: frames, loopCount: nil, scale: options.scaleFactor, format: .tiff, metadata: metadata))
        }
    }

    /// One page at `target` (the size shown), its colour plan, whether an orientation was
    /// applied and whether CMYK went through an ICC profile.
    private func decodePage(_ page: TIFFDirectoryInfo, number: Int, layout: TIFFLayout, handle: TIFFHandle, target: PixelSize, options: ImageDecodeOptions) throws -> (Bitmap, ColorPlan, Bool, Bool) {
        let orient = options.applyOrientation && page.orientation != 1
        let storedTarget = orient && page.orientation >= 5 ? PixelSize(width: target.height, height: target.width) : target
        // A preview of the first page at least as large as the target, in the same aspect.
        var source = page
        if number == 0, storedTarget.width < page.size.width || storedTarget.height < page.size.height {
            let aspect = Double(page.size.width) / Double(max(1, page.size.height))
            let candidates = layout.previews.filter { preview in
                preview.size.width >= storedTarget.width && preview.size.height >= storedTarget.height
                    && preview.size.width < page.size.width
                    && abs(Double(preview.size.width) / Double(max(1, preview.size.height)) - aspect) <= aspect * 0.02
                    && preview.orientation == page.orientation
            }
            if let smallest = candidates.min(by: { ($0.size.pixelCount ?? .max) < ($1.size.pixelCount ?? .max) }) {
                source = smallest
            }
        }
        try TIFFLayout.select(source, in: handle)
        let decoded = try TIFFPageDecoding.decode(source, handle: handle, storedTarget: storedTarget)
        var bitmap = decoded.bitmap
        var plan = ColorPlan.none
        if !source.isCMYK {
            plan = ColorConversion.plan(for: source.iccProfile, options: options)
            plan.apply(to: &bitmap)
        }
        if orient { bitmap = try TIFFOrientation.apply(page.orientation, to: bitmap) }
        return (bitmap, plan, orient, decoded.convertedCMYK)
    }

    /// libtiff's cap on one allocation: room for a full-size 16-bit RGBA strip at the pixel limit.
    static func maxAllocation(_ options: ImageDecodeOptions) -> Int {
        let (bytes, overflow) = max(1, options.maxPixelCount).multipliedReportingOverflow(by: 8)
        return overflow ? Int.max : max(64 << 20, bytes + (1 << 20))
    }

    /// The options' limits against the pages' headers.
    static func checkLimits(_ pages: [TIFFDirectoryInfo], options: ImageDecodeOptions, byteCount: Int) throws {
        guard pages.count <= max(1, options.maxFrameCount) else {
            throw WebImageError(.imageTooLarge, "TIFF of \(pages.count) pages is over the limit of \(options.maxFrameCount) frames")
        }
        var total = 0
        for (number, page) in pages.enumerated() {
            guard !page.size.isEmpty else {
                throw WebImageError(.badImageData, "TIFF data of \(byteCount) bytes: page \(number) has an empty size (\(page.size))")
            }
            guard let pixels = page.size.pixelCount, pixels <= options.maxPixelCount else {
                throw WebImageError(.imageTooLarge, "TIFF page \(number) of \(page.size) is over the limit of \(options.maxPixelCount) pixels per frame")
            }
            let (sum, overflow) = total.addingReportingOverflow(pixels)
            guard !overflow, sum <= options.maxTotalPixelCount else {
                throw WebImageError(.imageTooLarge, "TIFF of \(pages.count) pages is over the limit of \(options.maxTotalPixelCount) pixels per image (page \(number) of \(page.size) passes it)")
            }
            total = sum
        }
    }

    // MARK: Properties

    /// The first page's size, orientation, alpha and colour space, and the page count, from the
    /// directories alone.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not a readable TIFF.
    public func readProperties(of data: Data) throws -> ImageProperties {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "data of \(data.count) bytes is not a TIFF (no II*/MM* header)")
        }
        return try TIFFHandle.read(data, maxAllocation: Self.maxAllocation(ImageDecodeOptions())) { handle in
            let layout = try TIFFLayout.read(handle, maxDirectories: 65_535, stopQuietly: true)
            let first = layout.pages[0]
            var properties = ImageProperties(format: .tiff, pixelSize: first.size, orientation: first.orientation, frameCount: layout.pages.count, hasAlpha: first.hasAlpha)
            properties.colorSpace = first.colorSpaceDescription
            return properties
        }
    }

    // MARK: Encoding

    /// `true` for ``/WebImageCore/ImageFormat/tiff``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .tiff
    }

    /// Encodes `image` as TIFF: 8-bit RGB(A), one page per frame (the first only with
    /// `firstFrameOnly`), compressed with ``compression``.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` for another format,
    ///   ``/WebImageCore/WebImageError/Code/encodingFailed`` when libtiff fails.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "TIFFCoder cannot encode \(format)")
        }
        let pageCount = options.firstFrameOnly ? 1 : image.frameCount
        return try TIFFHandle.write { handle in
            for index in 0..<pageCount {
                let bitmap = try options.fitted(index == 0 && pageCount == 1 ? image.bitmap : image.frame(at: index, buffering: false).bitmap)
                try TIFFEncoding.writePage(bitmap, handle: handle, compression: compression, profile: image.colorProfile?.data, page: pageCount > 1 ? (index, pageCount) : nil)
            }
        }
    }
}
