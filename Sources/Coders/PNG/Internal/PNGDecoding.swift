import Foundation
import WebImageCore
import WebImageColor

/// PNG decoding in Swift over zlib: the still image (the default image of an APNG).
enum PNGDecoding {
    /// Parses `data`, checking the header's pixel count against the options' limit.
    /// - Parameter byteCount: The size of the whole input, for messages (default: `raw.count`;
    ///   a file decode parses only the chunks before its image data).
    static func parse(_ raw: UnsafeRawBufferPointer, options: ImageDecodeOptions, byteCount: Int? = nil) throws -> PNGFile {
        let file = try PNGFile.parse(raw, maxFrameCount: options.firstFrameOnly ? .max : options.maxFrameCount)
        let size = PixelSize(width: file.header.width, height: file.header.height)
        try PixelLimit.check(size, options: options, format: "PNG", byteCount: byteCount ?? raw.count)
        return file
    }

    /// The error for a file with no image data: truncated before it, or without an IDAT chunk.
    static func missingImageData(_ file: PNGFile, byteCount: Int, url: URL? = nil) -> WebImageError {
        WebImageError(
            .badImageData,
            file.truncated ? "PNG data of \(byteCount) bytes is truncated before its image data" : "PNG data of \(byteCount) bytes has no IDAT chunk",
            url: url
        )
    }

    /// The reducer of a thumbnail of `file` at `target` made from the rows as they are decoded,
    /// or `nil` for the full size (or a size the reducer does not make). With
    /// `options.thumbnailBoxFactor` whose reduction is exactly `target`, the reduction alone.
    static func thumbnailReducer(_ file: PNGFile, target: PixelSize, options: ImageDecodeOptions) -> BlockReducer? {
        let size = PixelSize(width: file.header.width, height: file.header.height)
        guard target != size else { return nil }
        let order: BlockReducer.Order = file.format.interlaced ? .any : .contiguous
        if let factor = options.thumbnailBoxFactor, factor > 1, BoxReduction.reducedSize(of: size, fx: factor, fy: factor) == target {
            return BlockReducer(source: size, factor: factor, order: order, opaque: !file.hasTransparency)
        }
        return BlockReducer(source: size, target: target, order: order, opaque: !file.hasTransparency)
    }

    /// Decodes the pixels of one image (`ranges` of compressed data, `width` x `height`).
    /// - Returns: The RGBA8 bytes and whether every row was there.
    static func pixels(_ raw: UnsafeRawBufferPointer, file: PNGFile, ranges: [Range<Int>], width: Int, height: Int) throws -> (bytes: [UInt8], complete: Bool) {
        // Complete data: one libdeflate call for the whole image, when it fits exactly.
        if !file.truncated, let bytes = try PNGWholeImageDecoder.decode(raw, ranges: ranges, width: width, height: height, format: file.format) {
            return (bytes, true)
        }
        var complete = false
        let bytes = try PixelBuffer.make(count: width * height * 4) { buffer in
            complete = try PNGRaster.decode(raw, ranges: ranges, width: width, height: height, format: file.format, into: buffer.baseAddress!)
        }
        return (bytes, complete)
    }

    /// Decodes the default image of `data` as a still: a thumbnail when the options ask for one
    /// (made from the rows as they are decoded, through ``BlockReducer``, when the thumbnail is at
    /// most a quarter of the source on a side: no full-size bitmap is allocated), marked
    /// ``ImageMetadata/incremental`` when the data ended before the last row.
    static func decodeStill(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        try data.withUnsafeBytes { raw in
            let file = try parse(raw, options: options)
            return try still(raw, file: file, options: options)
        }
    }

    /// The thumbnail of an image of `format` from its compressed data in `source`, made row by
    /// row through `reducer`, and whether every row was there (pixels of missing rows count as
    /// transparent).
    static func thumbnail(_ source: InflateSource, format: PNGFile.PixelFormat, hasTransparency: Bool, reducer: inout BlockReducer) throws -> (bitmap: Bitmap, complete: Bool) {
        let size = reducer.source
        let complete: Bool
        if format.isOpaqueRGB8, !format.interlaced {
            // Opaque RGB8 (the common photo): the unfiltered rows go into the sums as they are.
            complete = try PNGRaster.decodeUnfilteredRows(source, width: size.width, height: size.height, format: format) { y, _, _, pixels, count in
                reducer.addOpaqueRGB(row: y, pixels: pixels, count: count)
            }
        } else {
            complete = try PNGRaster.decodeRows(source, width: size.width, height: size.height, format: format) { y, x0, step, pixels, count in
                reducer.add(row: y, pixels: pixels, firstColumn: x0, step: step, count: count)
            }
        }
        return (try reducer.thumbnail(hasAlpha: hasTransparency || !complete), complete)
    }

    /// A thumbnail's image: marked ``ImageMetadata/incremental`` when rows or the end of the file were missing.
    static func thumbnailImage(_ bitmap: Bitmap, complete: Bool, truncated: Bool, options: ImageDecodeOptions) -> WebImage {
        var metadata: ImageMetadata = [.decoded, .thumbnail]
        if !complete || truncated { metadata.insert(.incremental) }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .png, metadata: metadata)
    }

    static func still(_ raw: UnsafeRawBufferPointer, file: PNGFile, options: ImageDecodeOptions) throws -> WebImage {
        let size = PixelSize(width: file.header.width, height: file.header.height)
        guard !file.imageData.isEmpty else { throw missingImageData(file, byteCount: raw.count) }
        let target = options.targetPixelSize(for: size)
        if var reducer = thumbnailReducer(file, target: target, options: options) {
            // A thumbnail from the rows as they are decoded: no full-size bitmap.
            let source = try InflateSource(bytes: raw, ranges: file.imageData)
            var (bitmap, complete) = try thumbnail(source, format: file.format, hasTransparency: file.hasTransparency, reducer: &reducer)
            let color = colorPlan(file, in: raw, options: options)
            color.apply(to: &bitmap)
            return color.marking(thumbnailImage(bitmap, complete: complete, truncated: file.truncated, options: options))
        }
        let (bytes, complete) = try pixels(raw, file: file, ranges: file.imageData, width: size.width, height: size.height)
        var bitmap = try Bitmap(width: size.width, height: size.height, bytes: bytes, hasAlpha: file.hasTransparency || !complete)
        var metadata: ImageMetadata = .decoded
        if target != size {
            bitmap = try Thumbnail.resize(bitmap, to: target)
            metadata.insert(.thumbnail)
        }
        if !complete || file.truncated { metadata.insert(.incremental) }
        let color = colorPlan(file, in: raw, options: options)
        color.apply(to: &bitmap)
        return color.marking(WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .png, metadata: metadata))
    }

    /// What the file's colour chunks (``PNGColorChunks``) ask of the decoded pixels under
    /// `options` (``/WebImageColor/ColorConversion/plan(for:options:)``).
    static func colorPlan(_ file: PNGFile, in raw: UnsafeRawBufferPointer, options: ImageDecodeOptions) -> ColorPlan {
        ColorConversion.plan(for: file.color.profile(in: raw), options: options)
    }
}
