import Foundation

/// Magic-byte detection of the built-in formats. Every read is bounds-checked: short, empty
/// or hostile data gives `.undefined`, never a trap or an unbounded scan.
enum ImageFormatSniffer {
    /// How far into the data the SVG check looks for `<svg`.
    static let svgScanLimit = 4096

    static func sniff(_ data: Data) -> ImageFormatDetection {
        data.withUnsafeBytes { raw in sniff(raw) }
    }

    static func sniff(_ b: UnsafeRawBufferPointer) -> ImageFormatDetection {
        let n = b.count
        func has(_ bytes: [UInt8], at offset: Int) -> Bool {
            guard offset >= 0, offset + bytes.count <= n else { return false }
            for (i, byte) in bytes.enumerated() where b[offset + i] != byte { return false }
            return true
        }
        func ascii(_ text: String, at offset: Int) -> Bool { has(Array(text.utf8), at: offset) }

        if has([0xFF, 0xD8, 0xFF], at: 0) { return .init(format: .jpeg) }
        if has([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) {
            return .init(format: .png, isAnimated: pngIsAnimated(b))
        }
        if ascii("GIF87a", at: 0) || ascii("GIF89a", at: 0) {
            return .init(format: .gif, isAnimated: gifImageCount(b, stopAt: 2) >= 2)
        }
        if ascii("RIFF", at: 0) && ascii("WEBP", at: 8) {
            // Extended format: a VP8X chunk whose flags byte has the animation bit (0x02).
            let animated = ascii("VP8X", at: 12) && n > 20 && (b[20] & 0x02) != 0
            return .init(format: .webp, isAnimated: animated)
        }
        if has([0xFF, 0x0A], at: 0) { return .init(format: .jpegXL) }
        if has([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], at: 0) {
            return .init(format: .jpegXL)
        }
        if ascii("ftyp", at: 4), n >= 12 { return isoMediaDetection(b) }
        if has([0x49, 0x49, 0x2A, 0x00], at: 0) || has([0x4D, 0x4D, 0x00, 0x2A], at: 0) {
            return .init(format: .tiff)
        }
        if ascii("%PDF", at: 0) { return .init(format: .pdf) }
        if has([0x00, 0x00, 0x01, 0x00], at: 0), n >= 6, (b[4] != 0 || b[5] != 0) {
            return .init(format: .ico)
        }
        if ascii("BM", at: 0), n >= 18 {
            // The DIB header size names the BMP variant; anything else is text that starts "BM".
            let headerSize = Int(b[14]) | Int(b[15]) << 8 | Int(b[16]) << 16 | Int(b[17]) << 24
            if [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize) { return .init(format: .bmp) }
        }
        if looksLikeSVG(b) { return .init(format: .svg) }
        return .init(format: .undefined)
    }

    private static func bigEndian32(_ b: UnsafeRawBufferPointer, _ offset: Int) -> Int? {
        guard offset >= 0, offset + 4 <= b.count else { return nil }
        return Int(b[offset]) << 24 | Int(b[offset + 1]) << 16 | Int(b[offset + 2]) << 8 | Int(b[offset + 3])
    }

    private static func fourCC(_ b: UnsafeRawBufferPointer, _ offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= b.count else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: b[offset..<offset + 4]), as: UTF8.self)
    }

    /// APNG: an `acTL` chunk before the first `IDAT`.
    private static func pngIsAnimated(_ b: UnsafeRawBufferPointer) -> Bool {
        var offset = 8
        while let length = bigEndian32(b, offset), let type = fourCC(b, offset + 4) {
            if type == "acTL" { return true }
            if type == "IDAT" || type == "IEND" { return false }
            // length + type + data + CRC; lengths over 2^31 are invalid PNG.
            guard length <= 0x7FFF_FFFF else { return false }
            offset += 12 + length
        }
        return false
    }

    /// Counts GIF image descriptors, stopping at `stopAt` or at anything malformed.
    private static func gifImageCount(_ b: UnsafeRawBufferPointer, stopAt: Int) -> Int {
        let n = b.count
        guard n >= 13 else { return 0 }
        var offset = 13
        if b[10] & 0x80 != 0 { offset += 3 << (Int(b[10] & 0x07) + 1) }
        var images = 0
        func skipSubBlocks(_ offset: inout Int) -> Bool {
            while offset < n {
                let size = Int(b[offset])
                offset += 1
                if size == 0 { return true }
                offset += size
            }
            return false
        }
        while offset < n, images < stopAt {
            switch b[offset] {
            case 0x21:  // extension: introducer, label, sub-blocks
                offset += 2
                guard skipSubBlocks(&offset) else { return images }
            case 0x2C:  // image descriptor: 10 bytes, optional local table, LZW size, sub-blocks
                guard offset + 10 <= n else { return images }
                let packed = b[offset + 9]
                offset += 10
                if packed & 0x80 != 0 { offset += 3 << (Int(packed & 0x07) + 1) }
                offset += 1
                guard skipSubBlocks(&offset) else { return images + 1 }
                images += 1
            default:  // trailer (0x3B) or garbage
                return images
            }
        }
        return images
    }

    /// HEIC, HEIF and AVIF from the `ftyp` box: the major brand, then the compatible brands for
    /// the generic `mif1` / `msf1` majors.
    private static func isoMediaDetection(_ b: UnsafeRawBufferPointer) -> ImageFormatDetection {
        let heicBrands: Set = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]
        let sequenceBrands: Set = ["hevc", "hevx", "hevm", "hevs", "msf1", "avis"]
        guard let major = fourCC(b, 8) else { return .init(format: .undefined) }
        if heicBrands.contains(major) { return .init(format: .heic, isAnimated: sequenceBrands.contains(major)) }
        if major == "avif" || major == "avis" { return .init(format: .avif, isAnimated: major == "avis") }
        guard major == "mif1" || major == "msf1" else { return .init(format: .undefined) }
        let boxSize = min(bigEndian32(b, 0) ?? 0, b.count)
        var compatible: [String] = []
        var offset = 16
        while offset + 4 <= boxSize, let brand = fourCC(b, offset) {
            compatible.append(brand)
            offset += 4
        }
        let animated = major == "msf1"
        if compatible.contains(where: { $0 == "avif" || $0 == "avis" }) { return .init(format: .avif, isAnimated: animated) }
        if compatible.contains(where: { heicBrands.contains($0) }) { return .init(format: .heic, isAnimated: animated) }
        return .init(format: .heif, isAnimated: animated)
    }

    /// SVG: text whose first non-blank character is `<` and that has `<svg` near the start.
    private static func looksLikeSVG(_ b: UnsafeRawBufferPointer) -> Bool {
        var start = 0
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { start = 3 }
        while start < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[start]) { start += 1 }
        guard start < b.count, b[start] == UInt8(ascii: "<") else { return false }
        let end = min(b.count, start + svgScanLimit)
        let needle = Array("<svg".utf8)
        guard end - start >= needle.count else { return false }
        var i = start
        while i + needle.count <= end {
            if b[i] == needle[0], b[i + 1] == needle[1], b[i + 2] == needle[2], b[i + 3] == needle[3] { return true }
            i += 1
        }
        return false
    }
}
