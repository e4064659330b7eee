import Foundation
import WebImageCore

/// A headless BMP entry of an icon: a `BITMAPINFOHEADER` (or a later version of it) whose
/// height counts the colour rows and the 1-bit AND mask rows, the palette, the colour rows
/// (bottom-up, 1, 4, 8, 24 or 32 bits per pixel, uncompressed) and the AND mask (1: transparent).
///
/// 32-bit entries take their alpha from the fourth byte, unless every pixel's is 0 (icons from
/// before alpha), when the AND mask applies, as Windows does; the others take it from the mask.
struct ICOBitmapEntry {
    /// The image's size (half the stated height: the rest is the AND mask).
    let size: PixelSize
    /// Bits per pixel: 1, 4, 8, 24 or 32.
    let bitCount: Int
    /// The bitmap header's size: the palette follows it.
    private let headerSize: Int
    /// Palette entries (4 bytes each; 0 for 24 and 32-bit).
    private let paletteCount: Int

    /// Reads and checks the header of `bytes` (the entry's data).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` naming what is wrong.
    init(_ bytes: [UInt8], entry: Int) throws {
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        func i32(_ o: Int) -> Int { Int(Int32(bitPattern: UInt32(u16(o)) | UInt32(u16(o + 2)) << 16)) }
        guard bytes.count >= 40 else {
            throw WebImageError(.badImageData, "icon entry \(entry) of \(bytes.count) bytes is too short for a bitmap header")
        }
        headerSize = i32(0)
        guard headerSize >= 40, headerSize <= 124 else {
            throw WebImageError(.badImageData, "icon entry \(entry) has a bitmap header of \(headerSize) bytes (expected 40 to 124)")
        }
        let width = i32(4), doubledHeight = i32(8)
        guard width > 0, width <= 1024, doubledHeight > 0, doubledHeight <= 2048 else {
            throw WebImageError(.badImageData, "icon entry \(entry) has an absurd bitmap size \(width)x\(doubledHeight / 2) (AND mask included: \(doubledHeight) rows)")
        }
        size = PixelSize(width: width, height: max(1, doubledHeight / 2))
        bitCount = u16(14)
        guard [1, 4, 8, 24, 32].contains(bitCount) else {
            throw WebImageError(.badImageData, "icon entry \(entry) has \(bitCount) bits per pixel (1, 4, 8, 24 or 32 are read)")
        }
        let compression = i32(16)
        guard compression == 0 || (compression == 3 && bitCount == 32) else {
            throw WebImageError(.badImageData, "icon entry \(entry) has bitmap compression \(compression) (only uncompressed bitmaps are read)")
        }
        let used = i32(32)
        if bitCount <= 8 {
            guard used >= 0, used <= 1 << bitCount else {
                throw WebImageError(.badImageData, "icon entry \(entry) states \(used) palette colours for \(bitCount) bits per pixel")
            }
            paletteCount = used == 0 ? 1 << bitCount : used
        } else {
            paletteCount = 0
        }
        let needed = headerSize + paletteCount * 4 + colorStride * size.height
        guard bytes.count >= needed else {
            throw WebImageError(.badImageData, "icon entry \(entry) is truncated: \(bytes.count) bytes for a \(size) \(bitCount)-bit bitmap of \(needed) bytes")
        }
    }

    /// Bytes per colour row (rows are padded to 4 bytes).
    private var colorStride: Int { ((size.width * bitCount + 31) / 32) * 4 }
    /// Bytes per AND mask row.
    private var maskStride: Int { ((size.width + 31) / 32) * 4 }

    /// Decodes the pixels (RGBA8, straight alpha, top-down).
    func decode(_ bytes: [UInt8]) throws -> Bitmap {
        let width = size.width, height = size.height
        let paletteStart = headerSize
        let colorStart = paletteStart + paletteCount * 4
        let maskStart = colorStart + colorStride * height
        let hasMask = bytes.count >= maskStart + maskStride * height
        var out = [UInt8](repeating: 0, count: width * height * 4)
        var anyAlpha = false
        for row in 0..<height {
            let source = colorStart + (height - 1 - row) * colorStride
            for x in 0..<width {
                let o = (row * width + x) * 4
                var b = 0, g = 0, r = 0, a = 255
                switch bitCount {
                case 32:
                    let p = source + x * 4
                    b = Int(bytes[p]); g = Int(bytes[p + 1]); r = Int(bytes[p + 2]); a = Int(bytes[p + 3])
                    if a != 0 { anyAlpha = true }
                case 24:
                    let p = source + x * 3
                    b = Int(bytes[p]); g = Int(bytes[p + 1]); r = Int(bytes[p + 2])
                default:
                    let bitOffset = x * bitCount
                    let byte = Int(bytes[source + bitOffset / 8])
                    let shift = 8 - bitCount - bitOffset % 8
                    let index = (byte >> shift) & ((1 << bitCount) - 1)
                    if index < paletteCount {
                        let p = paletteStart + index * 4
                        b = Int(bytes[p]); g = Int(bytes[p + 1]); r = Int(bytes[p + 2])
                    }
                }
                out[o] = UInt8(r); out[o + 1] = UInt8(g); out[o + 2] = UInt8(b); out[o + 3] = UInt8(a)
            }
        }
        // The AND mask: for every depth but 32-bit with alpha.
        if bitCount != 32 || !anyAlpha {
            for row in 0..<height {
                let source = maskStart + (height - 1 - row) * maskStride
                for x in 0..<width {
                    let transparent = hasMask && (bytes[source + x / 8] >> (7 - x % 8)) & 1 == 1
                    out[(row * width + x) * 4 + 3] = transparent ? 0 : 255
                }
            }
        }
        return try Bitmap(width: width, height: height, bytes: out, hasAlpha: true)
    }
}
