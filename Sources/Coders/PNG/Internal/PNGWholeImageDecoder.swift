import CDeflate
import WebImageCore

/// The fast path of PNG decoding, beside the streaming ``PNGRaster``: a complete,
/// non-interlaced image of at most 32 bits per pixel is inflated in one call to libdeflate
/// (about twice zlib's speed), straight into the buffer that becomes the bitmap, then
/// unfiltered (``PNGUnfilter``) and converted to RGBA8 in place.
///
/// One allocation, about the bitmap's size: the inflated rows, `height * (rowBytes + 1)` bytes
/// (known from the header), are written at the tail of a buffer of
/// `max(width * height * 4, height * (rowBytes + 1))` bytes, and row `y` is unfiltered (into a
/// one-row scratch, or for RGBA straight into its final place) and converted into the head;
/// the converted row `y` never reaches the filtered row `y + 1`, so nothing is overwritten
/// before it is read. The compressed data is copied into one contiguous buffer first when it
/// spans several IDAT (fdAT) chunks.
///
/// Never more than the expected size: libdeflate writes at most the buffer it is given and
/// stops with `LIBDEFLATE_INSUFFICIENT_SPACE` when the data would inflate further. Anything
/// but an exact fit (image data that inflates beyond or short of the rows, a corrupt stream,
/// a bad zlib header) returns `nil`, and the caller decodes with ``PNGRaster`` over zlib, which
/// reads exactly the rows it needs, keeps the rows before a corruption or a short end, and
/// words the error; so the two paths give the same pixels and the same errors.
enum PNGWholeImageDecoder {
    /// Whether the fast path takes an image of `format` (the caller also needs complete data).
    static func accepts(_ format: PNGFile.PixelFormat) -> Bool {
        !format.interlaced && format.bitsPerPixel <= 32
    }

    /// Decodes `width` x `height` pixels from the compressed ranges of `bytes` as RGBA8 with
    /// straight alpha (rows packed), or returns `nil` when the fast path does not apply or the
    /// data does not inflate to exactly the image's rows (see the type's documentation).
    /// - Throws: ``WebImageError/Code/badImageData`` for an unknown filter type.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, ranges: [Range<Int>], width: Int, height: Int, format: PNGFile.PixelFormat
    ) throws -> [UInt8]? {
        guard accepts(format), width > 0, height > 0 else { return nil }
        let bitsPerPixel = format.bitsPerPixel
        let (rowBits, rowOverflow) = width.multipliedReportingOverflow(by: bitsPerPixel)
        guard !rowOverflow else { return nil }
        let rowBytes = (rowBits + 7) / 8
        let (filteredCount, filteredOverflow) = (rowBytes + 1).multipliedReportingOverflow(by: height)
        let (outputCount, outputOverflow) = (width * 4).multipliedReportingOverflow(by: height)
        guard !filteredOverflow, !outputOverflow else { return nil }
        let compressedCount = ranges.reduce(0) { $0 + $1.count }
        guard compressedCount > 2 else { return nil }

        if ranges.count == 1 {
            let start = bytes.baseAddress! + ranges[0].lowerBound
            return try decode(compressed: UnsafeRawBufferPointer(start: start, count: compressedCount), width: width, height: height,
                              format: format, rowBytes: rowBytes, filteredCount: filteredCount, outputCount: outputCount)
        }
        let joined = [UInt8](unsafeUninitializedCapacity: compressedCount) { buffer, initialized in
            var offset = 0
            for range in ranges {
                UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(from: bytes.baseAddress! + range.lowerBound, byteCount: range.count)
                offset += range.count
            }
            initialized = compressedCount
        }
        return try joined.withUnsafeBytes { compressed in
            try decode(compressed: compressed, width: width, height: height, format: format,
                       rowBytes: rowBytes, filteredCount: filteredCount, outputCount: outputCount)
        }
    }

    private static func decode(
        compressed: UnsafeRawBufferPointer, width: Int, height: Int, format: PNGFile.PixelFormat,
        rowBytes: Int, filteredCount: Int, outputCount: Int
    ) throws -> [UInt8]? {
        // The zlib header (checked as the streaming path does; it reports a bad one), then raw
        // deflate: the Adler-32 trailer is not verified (see PNGCoder's documentation).
        let cmf = Int(compressed[0]), flags = Int(compressed[1])
        guard (cmf << 8 | flags) % 31 == 0, cmf & 0x0F == 8, cmf >> 4 <= 7, flags & 0x20 == 0 else { return nil }
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }

        var inflated = false
        let capacity = max(outputCount, filteredCount)
        let pixels = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            initialized = 0
            let output = buffer.baseAddress!
            let filtered = output + (capacity - filteredCount)
            var actualIn = 0, actualOut = 0
            let result = libdeflate_deflate_decompress_ex(
                decompressor, compressed.baseAddress! + 2, compressed.count - 2, filtered, filteredCount, &actualIn, &actualOut
            )
            guard result == LIBDEFLATE_SUCCESS, actualOut == filteredCount else { return }
            try unfilterAndConvert(filtered: filtered, into: output, width: width, height: height, format: format, rowBytes: rowBytes)
            inflated = true
            initialized = outputCount
        }
        return inflated ? pixels : nil
    }

    /// Unfilters the `height` filtered rows at `filtered` (each `rowBytes + 1` bytes, type first)
    /// and converts them to RGBA8 rows at `output`, in place (see the type's documentation).
    private static func unfilterAndConvert(
        filtered: UnsafeMutablePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>,
        width: Int, height: Int, format: PNGFile.PixelFormat, rowBytes: Int
    ) throws {
        let stride = max(1, format.bitsPerPixel / 8)
        let rowStride = rowBytes + 1
        let outputRow = width * 4
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        try zeros.withUnsafeBufferPointer { zeros in
            if format.colorType == 6 && format.bitDepth == 8 {
                // RGBA8: the unfiltered bytes are the pixels; each row goes straight to its place.
                var previous = UnsafePointer(zeros.baseAddress!)
                for y in 0..<height {
                    let row = filtered + y * rowStride
                    let target = output + y * outputRow
                    try PNGUnfilter.row(type: row[0], source: row + 1, previous: previous, target: target, count: rowBytes, stride: stride)
                    previous = UnsafePointer(target)
                }
                return
            }
            // Other formats: unfilter into a scratch row (with its filter byte and 4 spare bytes
            // for the RGB conversion's 4-byte loads), then convert into place.
            var current = [UInt8](repeating: 0, count: rowBytes + 5)
            var previous = [UInt8](repeating: 0, count: rowBytes + 5)
            let converter = RowConverter(format: format)
            let rgb = format.isOpaqueRGB8
            for y in 0..<height {
                let row = filtered + y * rowStride
                try current.withUnsafeMutableBufferPointer { current in
                    try previous.withUnsafeBufferPointer { previous in
                        let above = y == 0 ? zeros.baseAddress! : previous.baseAddress! + 1
                        try PNGUnfilter.row(type: row[0], source: row + 1, previous: above, target: current.baseAddress! + 1, count: rowBytes, stride: stride)
                    }
                    let target = output + y * outputRow
                    if rgb {
                        expandRGB(UnsafePointer(current.baseAddress! + 1), into: target, width: width)
                    } else {
                        converter.convert(UnsafeBufferPointer(current), width: width, into: target)
                    }
                }
                swap(&current, &previous)
            }
        }
    }

    /// RGB8 to opaque RGBA8: one 4-byte load per pixel (the fourth byte, the next pixel's red or
    /// a spare byte after the row, is replaced by 255).
    @inline(__always)
    private static func expandRGB(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, width: Int) {
        let input = UnsafeRawPointer(source)
        let output = UnsafeMutableRawPointer(target)
        for x in 0..<width {
            let value = input.loadUnaligned(fromByteOffset: x * 3, as: UInt32.self) | 0xFF00_0000
            output.storeBytes(of: value, toByteOffset: x * 4, as: UInt32.self)
        }
    }
}
