import Foundation

/// Writes PNG files by hand for the tests: any chunk, any color type and bit depth, with the
/// image data in stored (uncompressed) deflate blocks, so that expectations follow from the PNG
/// specification and not from the encoder under test.
struct PNGBuilder {
    private(set) var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func be16(_ value: Int) -> [UInt8] {
        [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    mutating func chunk(_ type: String, _ payload: [UInt8], corruptCRC: Bool = false) {
        let body = Array(type.utf8) + payload
        data.append(contentsOf: Self.be32(payload.count))
        data.append(contentsOf: body)
        let crc = Self.crc(body) ^ (corruptCRC ? 1 : 0)
        data.append(contentsOf: Self.be32(Int(crc)))
    }

    mutating func header(width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool = false) {
        chunk("IHDR", Self.be32(width) + Self.be32(height) + [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0])
    }

    /// A zlib stream of stored blocks holding `raw`.
    static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let final: UInt8 = offset + count >= raw.count ? 1 : 0
            out.append(final)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int(b << 16 | a))
    }

    /// Packs rows of samples (one array per row, each sample at `bitDepth`) with filter 0.
    static func rawRows(_ rows: [[Int]], bitDepth: Int) -> [UInt8] {
        var out: [UInt8] = []
        for row in rows {
            out.append(0)
            switch bitDepth {
            case 16:
                for sample in row { out += be16(sample) }
            case 8:
                out += row.map { UInt8($0) }
            default:
                var byte = 0, bits = 0
                for sample in row {
                    byte = byte << bitDepth | sample
                    bits += bitDepth
                    if bits == 8 {
                        out.append(UInt8(byte))
                        byte = 0
                        bits = 0
                    }
                }
                if bits > 0 { out.append(UInt8(byte << (8 - bits))) }
            }
        }
        return out
    }

    mutating func imageData(_ raw: [UInt8], chunks: Int = 1) {
        let stream = Self.zlibStored(raw)
        let size = (stream.count + chunks - 1) / chunks
        var offset = 0
        while offset < stream.count {
            chunk("IDAT", Array(stream[offset..<min(stream.count, offset + size)]))
            offset += size
        }
    }

    mutating func end() {
        chunk("IEND", [])
    }

    /// A complete non-interlaced PNG from rows of samples.
    static func image(width: Int, height: Int, bitDepth: Int, colorType: Int, rows: [[Int]], before: (inout PNGBuilder) -> Void = { _ in }) -> Data {
        var builder = PNGBuilder()
        builder.header(width: width, height: height, bitDepth: bitDepth, colorType: colorType)
        before(&builder)
        builder.imageData(rawRows(rows, bitDepth: bitDepth))
        builder.end()
        return builder.data
    }
}
