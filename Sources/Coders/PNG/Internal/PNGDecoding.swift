import Foundation
import WebImageCore

/// PNG decoding in Swift over zlib: the still image (the default image of an APNG).
enum PNGDecoding {
    /// Parses `data`, checking the header's pixel count against the options' limit.
    static func parse(_ raw: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws -> PNGFile {
        let file = try PNGFile.parse(raw, maxFrameCount: options.firstFrameOnly ? .max : options.maxFrameCount)
        let size = PixelSize(width: file.header.width, height: file.header.height)
        try PixelLimit.check(size, options: options, format: "PNG", byteCount: raw.count)
        return file
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

    static func still(_ raw: UnsafeRawBufferPointer, file: PNGFile, options: ImageDecodeOptions) throws -> WebImage {
        let size = PixelSize(width: file.header.width, height: file.header.height)
        guard !file.imageData.isEmpty else {
            throw WebImageError(
                .badImageData,
                file.truncated ? "PNG data of \(raw.count) bytes is truncated before its image data" : "PNG data of \(raw.count) bytes has no IDAT chunk"
            )
        }
        let target = options.targetPixelSize(for: size)
        if target != size, var reducer = BlockReducer(source: size, target: target, order: file.format.interlaced ? .any : .contiguous) {
            // A thumbnail from the rows as they are decoded: no full-size bitmap.
            let complete = try PNGRaster.decodeRows(raw, ranges: file.imageData, width: size.width, height: size.height, format: file.format) { y, x0, step, pixels, count in
                reducer.add(row: y, pixels: pixels, firstColumn: x0, step: step, count: count)
            }
            let bitmap = try reducer.thumbnail(hasAlpha: file.hasTransparency || !complete)
            var metadata: ImageMetadata = [.decoded, .thumbnail]
            if !complete || file.truncated { metadata.insert(.incremental) }
            return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .png, metadata: metadata)
        }
        let (bytes, complete) = try pixels(raw, file: file, ranges: file.imageData, width: size.width, height: size.height)
        var bitmap = try Bitmap(width: size.width, height: size.height, bytes: bytes, hasAlpha: file.hasTransparency || !complete)
        var metadata: ImageMetadata = .decoded
        if target != size {
            bitmap = try Thumbnail.resize(bitmap, to: target)
            metadata.insert(.thumbnail)
        }
        if !complete || file.truncated { metadata.insert(.incremental) }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .png, metadata: metadata)
    }

}
