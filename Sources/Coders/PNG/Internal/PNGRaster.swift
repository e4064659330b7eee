import CZlib
import WebImageCore

/// Decompresses, unfilters and converts one PNG image (the default image or an APNG frame) to
/// RGBA8 with straight alpha, streaming row by row: the decompressed data is never held whole.
///
/// Conversion: samples under 8 bits are scaled to 0...255 (1-bit 0/255, 2-bit x85, 4-bit x17);
/// 16-bit samples are rounded to 8 bits (`round(v / 257)`, as libpng's `png_set_scale_16`);
/// the tRNS color key is compared at the file's bit depth before any reduction; palette
/// indices past the palette give opaque black.
enum PNGRaster {
    /// The Adam7 passes: (x start, y start, x step, y step).
    static let adam7: [(Int, Int, Int, Int)] = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

    /// Decodes `width` x `height` pixels from the compressed ranges of `bytes` into `output`
    /// (`width * height * 4` bytes, rows packed).
    /// - Returns: `true` if every row was decoded; `false` if the data ran out first (the missing
    ///   pixels are transparent black).
    /// - Throws: ``WebImageError/Code/badImageData`` for a corrupt deflate stream or filter type.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, ranges: [Range<Int>], width: Int, height: Int,
        format: PNGFile.PixelFormat, into output: UnsafeMutablePointer<UInt8>
    ) throws -> Bool {
        if !format.interlaced {
            return try decodeRows(bytes, ranges: ranges, width: width, height: height, format: format) { y, _, _, pixels, count in
                (output + y * width * 4).update(from: pixels.assumingMemoryBound(to: UInt8.self), count: count * 4)
            } completed: { rows in
                // Rows that never arrived are transparent black.
                (output + rows * width * 4).initialize(repeating: 0, count: (height - rows) * width * 4)
            }
        }
        output.initialize(repeating: 0, count: width * height * 4)
        return try decodeRows(bytes, ranges: ranges, width: width, height: height, format: format) { y, x0, dx, pixels, count in
            let target = UnsafeMutableRawPointer(output + y * width * 4)
            for index in 0..<count {
                let value = pixels.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                target.storeBytes(of: value, toByteOffset: (x0 + index * dx) * 4, as: UInt32.self)
            }
        }
    }

    /// Decodes `width` x `height` pixels from the compressed ranges of `bytes` a row at a time,
    /// handing each row to `row` as RGBA8 instead of storing the image (for decoding at
    /// thumbnail size: only two rows of filtered data and one converted row are held).
    /// - Parameter row: Called with the image row `y`, the column of the first pixel, the
    ///   distance between pixels in columns (1; an Adam7 pass's step when interlaced), the
    ///   pixels (RGBA8, straight alpha, packed) and their count. Every pixel is handed over once;
    ///   pixels of rows that never arrive are not.
    /// - Returns: `true` if every row was decoded; `false` if the data ran out first.
    /// - Throws: ``WebImageError/Code/badImageData`` for a corrupt deflate stream or filter type.
    static func decodeRows(
        _ bytes: UnsafeRawBufferPointer, ranges: [Range<Int>], width: Int, height: Int,
        format: PNGFile.PixelFormat, row: (_ y: Int, _ firstColumn: Int, _ step: Int, _ pixels: UnsafeRawPointer, _ count: Int) -> Void,
        completed: (_ rows: Int) -> Void = { _ in }
    ) throws -> Bool {
        let source = try InflateSource(bytes: bytes, ranges: ranges)
        let bitsPerPixel = format.bitsPerPixel
        let filterStride = max(1, bitsPerPixel / 8)
        let converter = RowConverter(format: format)
        // Two filtered rows (filter byte first) and one converted row, allocated once for every
        // pass at the widest row's size; the filtered rows swap by pointer.
        let widest = (width * bitsPerPixel + 7) / 8 + 1
        var current = UnsafeMutablePointer<UInt8>.allocate(capacity: widest)
        var previous = UnsafeMutablePointer<UInt8>.allocate(capacity: widest)
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4)
        defer {
            current.deallocate()
            previous.deallocate()
            line.deallocate()
        }
        current.initialize(repeating: 0, count: widest)
        line.initialize(repeating: 0, count: width * 4)
        let passes = format.interlaced ? adam7 : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            let passWidth = width > x0 ? (width - x0 + dx - 1) / dx : 0
            let passHeight = height > y0 ? (height - y0 + dy - 1) / dy : 0
            guard passWidth > 0, passHeight > 0 else { continue }
            let rowBytes = (passWidth * bitsPerPixel + 7) / 8
            // A pass's first row is unfiltered against zeros.
            previous.initialize(repeating: 0, count: rowBytes + 1)
            for index in 0..<passHeight {
                guard try source.read(into: UnsafeMutableBufferPointer(start: current, count: rowBytes + 1)) else {
                    if !format.interlaced { completed(index) }
                    return false
                }
                try PNGUnfilter.row(type: current[0], source: current + 1, previous: previous + 1, target: current + 1, count: rowBytes, stride: filterStride)
                converter.convert(UnsafeBufferPointer(start: current, count: rowBytes + 1), width: passWidth, into: line)
                row(y0 + index * dy, x0, dx, UnsafeRawPointer(line), passWidth)
                swap(&current, &previous)
            }
        }
        return true
    }
}

/// Feeds the compressed ranges to zlib and hands out whole decompressed rows.
private final class InflateSource {
    private let bytes: UnsafeRawBufferPointer
    private var ranges: [Range<Int>]
    private var rangeIndex = 0
    private let zlib: ZlibStream
    private var ended = false

    init(bytes: UnsafeRawBufferPointer, ranges: [Range<Int>]) throws {
        self.bytes = bytes
        // The 2-byte zlib header may straddle chunks: check it, then skip it.
        var header: [UInt8] = []
        var trimmed: [Range<Int>] = []
        for range in ranges {
            var lower = range.lowerBound
            while header.count < 2, lower < range.upperBound {
                header.append(bytes[lower])
                lower += 1
            }
            if lower < range.upperBound { trimmed.append(lower..<range.upperBound) }
        }
        if header.count == 2 {
            let cmf = Int(header[0]), flags = Int(header[1])
            guard (cmf << 8 | flags) % 31 == 0, cmf & 0x0F == 8, cmf >> 4 <= 7, flags & 0x20 == 0 else {
                throw WebImageError(.badImageData, "PNG image data has an invalid zlib header (\(cmf), \(flags))")
            }
        }
        self.ranges = trimmed
        zlib = try ZlibStream(.inflateRaw)
    }

    /// Fills `buffer` with the next decompressed bytes.
    /// - Returns: `false` if the data ran out before the buffer was full.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Bool {
        let stream = zlib.stream
        stream.pointee.next_out = buffer.baseAddress
        stream.pointee.avail_out = UInt32(buffer.count)
        while stream.pointee.avail_out > 0 {
            if ended { return false }
            if stream.pointee.avail_in == 0 {
                guard rangeIndex < ranges.count else { return false }
                let range = ranges[rangeIndex]
                rangeIndex += 1
                stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + range.lowerBound)
                stream.pointee.avail_in = UInt32(range.count)
            }
            let status = inflate(stream, Z_NO_FLUSH)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                ended = true
            default:
                throw WebImageError(.badImageData, "PNG image data is corrupt: \(zlib.message(or: "zlib status \(status)"))")
            }
        }
        return true
    }
}

/// Converts one unfiltered row of any PNG pixel format to RGBA8.
struct RowConverter {
    let format: PNGFile.PixelFormat

    init(format: PNGFile.PixelFormat) {
        self.format = format
    }

    @inline(__always) static func pack(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) -> UInt32 {
        r | g << 8 | b << 16 | a << 24
    }

    @inline(__always) static func reduce(_ value: Int) -> UInt32 {
        UInt32((value + 128) / 257)
    }

    /// Converts `width` pixels of `row` (filter byte first) into `target`.
    func convert(_ row: UnsafeBufferPointer<UInt8>, width: Int, into target: UnsafeMutablePointer<UInt8>) {
        let input = row.baseAddress! + 1
        let out = UnsafeMutableRawPointer(target)
        let key = format.colorKey
        switch (format.colorType, format.bitDepth) {
        case (6, 8):
            out.copyMemory(from: input, byteCount: width * 4)
        case (2, 8):
            if let key {
                let (kr, kg, kb) = (Int(key[0]), Int(key[1]), Int(key[2]))
                for x in 0..<width {
                    let r = input[x * 3], g = input[x * 3 + 1], b = input[x * 3 + 2]
                    let alpha: UInt32 = (Int(r) == kr && Int(g) == kg && Int(b) == kb) ? 0 : 255
                    out.storeBytes(of: Self.pack(UInt32(r), UInt32(g), UInt32(b), alpha), toByteOffset: x * 4, as: UInt32.self)
                }
            } else {
                var x = 0
                var i = 0
                while x < width {
                    let value = UInt32(input[i]) | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2]) << 16 | 0xFF00_0000
                    out.storeBytes(of: value, toByteOffset: x * 4, as: UInt32.self)
                    x += 1
                    i += 3
                }
            }
        case (3, _):
            format.palette.withUnsafeBufferPointer { palette in
                let depth = format.bitDepth
                if depth == 8 {
                    for x in 0..<width {
                        out.storeBytes(of: palette[Int(input[x])], toByteOffset: x * 4, as: UInt32.self)
                    }
                } else {
                    let perByte = 8 / depth
                    let mask = (1 << depth) - 1
                    for x in 0..<width {
                        let byte = Int(input[x / perByte])
                        let shift = 8 - depth * (x % perByte + 1)
                        out.storeBytes(of: palette[(byte >> shift) & mask], toByteOffset: x * 4, as: UInt32.self)
                    }
                }
            }
        case (0, 16):
            let keyValue = key.map { Int($0[0]) } ?? -1
            for x in 0..<width {
                let v = Int(input[x * 2]) << 8 | Int(input[x * 2 + 1])
                let g = Self.reduce(v)
                out.storeBytes(of: Self.pack(g, g, g, v == keyValue ? 0 : 255), toByteOffset: x * 4, as: UInt32.self)
            }
        case (0, let depth):
            let keyValue = key.map { Int($0[0]) } ?? -1
            let perByte = 8 / depth
            let mask = (1 << depth) - 1
            let scale = 255 / mask
            for x in 0..<width {
                let v: Int
                if depth == 8 {
                    v = Int(input[x])
                } else {
                    let shift = 8 - depth * (x % perByte + 1)
                    v = (Int(input[x / perByte]) >> shift) & mask
                }
                let g = UInt32(v * scale)
                out.storeBytes(of: Self.pack(g, g, g, v == keyValue ? 0 : 255), toByteOffset: x * 4, as: UInt32.self)
            }
        case (2, _):  // 16-bit RGB
            let k = key.map { (Int($0[0]), Int($0[1]), Int($0[2])) }
            for x in 0..<width {
                let p = x * 6
                let r = Int(input[p]) << 8 | Int(input[p + 1])
                let g = Int(input[p + 2]) << 8 | Int(input[p + 3])
                let b = Int(input[p + 4]) << 8 | Int(input[p + 5])
                let transparent = k.map { r == $0.0 && g == $0.1 && b == $0.2 } ?? false
                out.storeBytes(of: Self.pack(Self.reduce(r), Self.reduce(g), Self.reduce(b), transparent ? 0 : 255), toByteOffset: x * 4, as: UInt32.self)
            }
        case (4, 8):
            for x in 0..<width {
                let g = UInt32(input[x * 2])
                out.storeBytes(of: Self.pack(g, g, g, UInt32(input[x * 2 + 1])), toByteOffset: x * 4, as: UInt32.self)
            }
        case (4, _):  // 16-bit gray + alpha
            for x in 0..<width {
                let p = x * 4
                let g = Self.reduce(Int(input[p]) << 8 | Int(input[p + 1]))
                let a = Self.reduce(Int(input[p + 2]) << 8 | Int(input[p + 3]))
                out.storeBytes(of: Self.pack(g, g, g, a), toByteOffset: x * 4, as: UInt32.self)
            }
        default:  // (6, 16)
            for x in 0..<width {
                let p = x * 8
                let r = Self.reduce(Int(input[p]) << 8 | Int(input[p + 1]))
                let g = Self.reduce(Int(input[p + 2]) << 8 | Int(input[p + 3]))
                let b = Self.reduce(Int(input[p + 4]) << 8 | Int(input[p + 5]))
                let a = Self.reduce(Int(input[p + 6]) << 8 | Int(input[p + 7]))
                out.storeBytes(of: Self.pack(r, g, b, a), toByteOffset: x * 4, as: UInt32.self)
            }
        }
    }
}
