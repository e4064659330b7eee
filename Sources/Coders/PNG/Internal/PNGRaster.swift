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
    /// thumbnail size: a batch of filtered rows and one converted row are held).
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
        return try decodeRows(source, width: width, height: height, format: format, row: row, completed: completed)
    }

    /// ``decodeRows(_:ranges:width:height:format:row:completed:)`` over any compressed input.
    static func decodeRows(
        _ source: InflateSource, width: Int, height: Int,
        format: PNGFile.PixelFormat, row: (_ y: Int, _ firstColumn: Int, _ step: Int, _ pixels: UnsafeRawPointer, _ count: Int) -> Void,
        completed: (_ rows: Int) -> Void = { _ in }
    ) throws -> Bool {
        let converter = RowConverter(format: format)
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4)
        defer { line.deallocate() }
        line.initialize(repeating: 0, count: width * 4)
        return try decodeUnfilteredRows(source, width: width, height: height, format: format, row: { y, x0, dx, bytes, count in
            converter.convert(UnsafeBufferPointer(start: bytes - 1, count: (count * format.bitsPerPixel + 7) / 8 + 1), width: count, into: line)
            row(y, x0, dx, UnsafeRawPointer(line), count)
        }, completed: completed)
    }

    /// The rows of compressed input, unfiltered but not converted: each row's bytes in the
    /// file's pixel format, handed to `row` with the same arguments as
    /// ``decodeRows(_:width:height:format:row:completed:)`` gives (`count` pixels; the byte
    /// before the first is the row's filter type, and at least 4 readable bytes follow the
    /// last). Several rows are inflated at a time into one buffer (about 256 KiB), so that
    /// zlib writes long runs straight into it.
    static func decodeUnfilteredRows(
        _ source: InflateSource, width: Int, height: Int,
        format: PNGFile.PixelFormat, row: (_ y: Int, _ firstColumn: Int, _ step: Int, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Void,
        completed: (_ rows: Int) -> Void = { _ in }
    ) throws -> Bool {
        let bitsPerPixel = format.bitsPerPixel
        let filterStride = max(1, bitsPerPixel / 8)
        // Slot 0 holds the previous unfiltered row (zeros at a pass's start); slots 1... the
        // batch. Each slot is a row with its filter byte first; 4 spare bytes at the end.
        let widestSlot = (width * bitsPerPixel + 7) / 8 + 1
        let batchRows = max(1, min(height, (256 * 1024) / widestSlot))
        let capacity = widestSlot * (batchRows + 1) + 4
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0, count: capacity)
        let passes = format.interlaced ? adam7 : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            let passWidth = width > x0 ? (width - x0 + dx - 1) / dx : 0
            let passHeight = height > y0 ? (height - y0 + dy - 1) / dy : 0
            guard passWidth > 0, passHeight > 0 else { continue }
            let rowBytes = (passWidth * bitsPerPixel + 7) / 8
            let slot = rowBytes + 1
            // A pass's first row is unfiltered against zeros.
            buffer.update(repeating: 0, count: slot)
            var index = 0
            while index < passHeight {
                let wanted = min(batchRows, passHeight - index)
                let received = try source.read(into: UnsafeMutableBufferPointer(start: buffer + slot, count: wanted * slot))
                let rows = received / slot
                var k = 0
                while k < rows {
                    let current = buffer + (k + 1) * slot
                    if k + 1 < rows, PNGUnfilter.pairs(current[0], current[slot], stride: filterStride) {
                        // Two Paeth rows at once (their dependency chains overlap).
                        PNGUnfilter.paethPair(current + 1, current + 1 + slot, previous: current + 1 - slot, count: rowBytes, stride: filterStride)
                        row(y0 + (index + k) * dy, x0, dx, UnsafePointer(current + 1), passWidth)
                        row(y0 + (index + k + 1) * dy, x0, dx, UnsafePointer(current + 1 + slot), passWidth)
                        k += 2
                        continue
                    }
                    try PNGUnfilter.row(type: current[0], source: current + 1, previous: current + 1 - slot, target: current + 1, count: rowBytes, stride: filterStride)
                    row(y0 + (index + k) * dy, x0, dx, UnsafePointer(current + 1), passWidth)
                    k += 1
                }
                index += rows
                guard rows == wanted else {
                    if !format.interlaced { completed(index) }
                    return false
                }
                if rows > 0 { (buffer + 1).update(from: buffer + rows * slot + 1, count: rowBytes) }
            }
        }
        return true
    }
}

/// Feeds compressed data to zlib and hands out decompressed bytes: the ranges of a buffer, or
/// pieces from any reader (a file read a piece at a time).
final class InflateSource {
    /// The next piece of compressed data, or `nil` at its end; a piece stays valid until the
    /// next call.
    typealias Reader = () throws -> UnsafeRawBufferPointer?
    private let next: Reader
    private let zlib: ZlibStream
    private var ended = false
    private var started = false

    /// A source over the compressed `ranges` of `bytes` (the zlib stream, header first).
    convenience init(bytes: UnsafeRawBufferPointer, ranges: [Range<Int>]) throws {
        var index = 0
        try self.init {
            guard index < ranges.count else { return nil }
            let range = ranges[index]
            index += 1
            return UnsafeRawBufferPointer(rebasing: bytes[range])
        }
    }

    /// A source over the pieces `next` returns (the zlib stream, header first).
    init(next: @escaping Reader) throws {
        self.next = next
        zlib = try ZlibStream(.inflateRaw)
    }

    /// Checks and skips the 2-byte zlib header, which may straddle pieces.
    private func start() throws {
        started = true
        var header: [UInt8] = []
        let stream = zlib.stream
        while header.count < 2 {
            while stream.pointee.avail_in == 0 {
                guard let piece = try next() else { return }  // no data: the read finds none
                stream.pointee.next_in = UnsafeMutablePointer(mutating: piece.baseAddress?.assumingMemoryBound(to: UInt8.self))
                stream.pointee.avail_in = UInt32(piece.count)
            }
            header.append(stream.pointee.next_in.pointee)
            stream.pointee.next_in += 1
            stream.pointee.avail_in -= 1
        }
        let cmf = Int(header[0]), flags = Int(header[1])
        guard (cmf << 8 | flags) % 31 == 0, cmf & 0x0F == 8, cmf >> 4 <= 7, flags & 0x20 == 0 else {
            throw WebImageError(.badImageData, "PNG image data has an invalid zlib header (\(cmf), \(flags))")
        }
    }

    /// Fills `buffer` with the next decompressed bytes.
    /// - Returns: How many bytes were written: fewer than `buffer.count` only when the data ran out.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        if !started { try start() }
        let stream = zlib.stream
        stream.pointee.next_out = buffer.baseAddress
        stream.pointee.avail_out = UInt32(buffer.count)
        while stream.pointee.avail_out > 0, !ended {
            if stream.pointee.avail_in == 0 {
                guard let piece = try next() else { break }
                stream.pointee.next_in = UnsafeMutablePointer(mutating: piece.baseAddress?.assumingMemoryBound(to: UInt8.self))
                stream.pointee.avail_in = UInt32(piece.count)
                if piece.isEmpty { continue }
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
        return buffer.count - Int(stream.pointee.avail_out)
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
