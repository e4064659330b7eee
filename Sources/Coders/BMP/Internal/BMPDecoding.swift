import Foundation
import WebImageCore
import WebImageColor

/// BMP decoding in Swift: BITMAPCOREHEADER (12), BITMAPINFOHEADER (40) and its V2-V5
/// extensions (52, 56, 108, 124) and OS/2 2.x (16, 64); 1, 4, 8, 16, 24 and 32 bits; BI_RGB,
/// RLE8, RLE4, BITFIELDS and ALPHABITFIELDS; bottom-up and top-down rows.
///
/// Decisions: 32-bit alpha comes only from a non-zero alpha mask: BITFIELDS / ALPHABITFIELDS
/// masks, or for BI_RGB the alpha mask of a V3/V4/V5 header (the format restricts only the
/// colour masks to BITFIELDS; Chrome honours it too), and then only when some pixel has a
/// non-zero alpha (writers that state the mask and leave every alpha 0 mean opaque). Otherwise
/// the fourth byte of a BI_RGB pixel is unused and every pixel is opaque. 16-bit BI_RGB is
/// 5-5-5; pixels an RLE stream skips (delta, end of line) are transparent; palette indices past
/// the palette are opaque black. Every read is bounds-checked; pixel data that ends early leaves
/// the missing rows transparent and the image marked ``ImageMetadata/incremental``.
enum BMPDecoding {
    struct Header {
        var width: Int
        var height: Int
        var topDown: Bool
        var bitsPerPixel: Int
        var compression: Int
        var pixelOffset: Int
        var masks: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)?
        /// The alpha mask came from the header of a BI_RGB file, not from BITFIELDS.
        var alphaFromRGBHeader = false
        var palette: [UInt32]
    }

    static func u16(_ b: UnsafeRawBufferPointer, _ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
    static func u32(_ b: UnsafeRawBufferPointer, _ o: Int) -> UInt32 {
        UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24
    }

    static func parseHeader(_ b: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws -> Header {
        let count = b.count
        guard count >= 18, b[0] == 0x42, b[1] == 0x4D else {
            throw WebImageError(.badImageData, "\(count) bytes are not BMP data (no BM signature)")
        }
        let infoSize = Int(u32(b, 14))
        guard [12, 16, 40, 52, 56, 64, 108, 124].contains(infoSize) else {
            throw WebImageError(.badImageData, "BMP header size \(infoSize) is not one this decoder knows")
        }
        guard count >= 14 + infoSize else {
            throw WebImageError(.badImageData, "BMP data of \(count) bytes is truncated inside its header")
        }
        let width: Int, rawHeight: Int, bitsPerPixel: Int, compression: Int, colorsUsed: Int
        if infoSize == 12 {
            width = u16(b, 18)
            rawHeight = u16(b, 20)
            bitsPerPixel = u16(b, 24)
            compression = 0
            colorsUsed = 0
        } else {
            width = Int(Int32(bitPattern: u32(b, 18)))
            rawHeight = Int(Int32(bitPattern: u32(b, 22)))
            bitsPerPixel = u16(b, 28)
            compression = infoSize >= 20 ? Int(u32(b, 30)) : 0
            colorsUsed = infoSize >= 36 ? Int(u32(b, 46)) : 0
        }
        let topDown = rawHeight < 0
        let height = abs(rawHeight)
        guard width > 0, height > 0 else {
            throw WebImageError(.badImageData, "BMP header claims an invalid size \(width)x\(rawHeight)")
        }
        try PixelLimit.check(PixelSize(width: width, height: height), options: options, format: "BMP", byteCount: count)
        let valid: Bool
        switch compression {
        case 0: valid = [1, 4, 8, 16, 24, 32].contains(bitsPerPixel)
        case 1: valid = bitsPerPixel == 8
        case 2: valid = bitsPerPixel == 4
        case 3, 6: valid = bitsPerPixel == 16 || bitsPerPixel == 32
        default: valid = false
        }
        guard valid, !(topDown && (compression == 1 || compression == 2)) else {
            throw WebImageError(.badImageData, "BMP with \(bitsPerPixel) bits per pixel and compression \(compression) is not supported")
        }
        var header = Header(width: width, height: height, topDown: topDown, bitsPerPixel: bitsPerPixel, compression: compression,
                            pixelOffset: Int(u32(b, 10)), masks: nil, alphaFromRGBHeader: false, palette: [])
        var tableOffset = 14 + infoSize
        if compression == 3 || compression == 6 {
            let maskCount = compression == 6 ? 4 : 3
            let maskBase: Int
            if infoSize >= 52 {
                maskBase = 54
            } else {
                maskBase = tableOffset
                tableOffset += maskCount * 4
            }
            guard maskBase + maskCount * 4 <= count else {
                throw WebImageError(.badImageData, "BMP data of \(count) bytes is truncated inside its bit masks")
            }
            let alpha = (maskCount == 4 || infoSize >= 56) ? u32(b, maskBase + 12) : 0
            header.masks = (u32(b, maskBase), u32(b, maskBase + 4), u32(b, maskBase + 8), alpha)
        } else if bitsPerPixel == 32, [56, 108, 124].contains(infoSize) {
            // BI_RGB with a header that states an alpha mask: alpha when the mask is non-zero
            // and clear of the colour bytes.
            let alpha = u32(b, 66)
            if alpha != 0, alpha & 0x00FF_FFFF == 0 {
                header.masks = (0x00FF_0000, 0x0000_FF00, 0x0000_00FF, alpha)
                header.alphaFromRGBHeader = true
            }
        } else if bitsPerPixel == 16 {
            header.masks = (0x7C00, 0x03E0, 0x001F, 0)
        }
        if bitsPerPixel <= 8 {
            let entrySize = infoSize == 12 ? 3 : 4
            let maximum = 1 << bitsPerPixel
            let entries = min(maximum, colorsUsed > 0 ? colorsUsed : maximum, max(0, (count - tableOffset) / entrySize))
            var palette = [UInt32](repeating: 0xFF00_0000, count: 256)
            for index in 0..<entries {
                let p = tableOffset + index * entrySize
                palette[index] = UInt32(b[p + 2]) | UInt32(b[p + 1]) << 8 | UInt32(b[p]) << 16 | 0xFF00_0000
            }
            header.palette = palette
        }
        return header
    }

    /// Decodes `data` to a still image. A thumbnail at most a quarter of the source on a side is
    /// made from the rows as they are decoded (``BlockReducer``: the same output as a full decode
    /// reduced with ``BoxReduction/thumbnail(_:to:)``), so no full-size bitmap is allocated.
    /// The colour profile of a BITMAPV4HEADER or BITMAPV5HEADER, or `nil` (sRGB or untagged):
    /// - `bV5CSType` `PROFILE_EMBEDDED` ("MBED", V5 only): the profile at `bV5ProfileData` bytes
    ///   from the header's start, `bV5ProfileSize` long;
    /// - `LCS_CALIBRATED_RGB` (0): a profile made from `bV5Endpoints` (CIE XYZ, 2.30 fixed
    ///   point) and the three gammas (16.16), when they describe a colour space; writers that
    ///   leave them zero (many do) get none;
    /// - `LCS_sRGB` and `LCS_WINDOWS_COLOR_SPACE` are sRGB; linked profiles (a file name on the
    ///   writer's machine) are not followed.
    static func colorProfile(_ b: UnsafeRawBufferPointer) -> Data? {
        guard b.count >= 14 + 108 else { return nil }
        let headerSize = u32(b, 14)
        guard headerSize == 108 || headerSize == 124 else { return nil }
        switch u32(b, 14 + 56) {
        case 0x4D42_4544 where headerSize == 124 && b.count >= 14 + 124:
            let offset = 14 + Int(u32(b, 14 + 112)), size = Int(u32(b, 14 + 116))
            guard size > 0, size <= ColorConversion.maximumProfileBytes, offset >= 14 + 124, offset <= b.count - size else { return nil }
            return Data(b[offset..<(offset + size)])
        case 0:
            let endpoints = (0..<9).map { Double(u32(b, 14 + 60 + 4 * $0)) / Double(1 << 30) }
            let gamma = (0..<3).map { Double(u32(b, 14 + 96 + 4 * $0)) / 65536 }
            return ColorConversion.profile(red: Array(endpoints[0..<3]), green: Array(endpoints[3..<6]), blue: Array(endpoints[6..<9]), gamma: gamma)
        default:
            return nil
        }
    }

    /// `image` under the file's colour profile, when it has one: converted to sRGB, or carrying
    /// it (``/WebImageCore/ColorProfileHandling/keep``).
    private static func applyingColor(_ image: WebImage, _ b: UnsafeRawBufferPointer, options: ImageDecodeOptions) -> WebImage {
        guard let profile = colorProfile(b) else { return image }
        if options.colorProfileHandling == .keep, let kept = ColorConversion.keptProfile(profile) {
            var image = image
            image.colorProfile = kept
            return image
        }
        var bitmap = image.bitmap
        guard ColorConversion.convert(&bitmap, profile: profile) == .converted else { return image }
        return WebImage(bitmap: bitmap, scale: image.scale, format: .bmp, metadata: image.metadata.union(.colorConverted))
    }

    static func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        try data.withUnsafeBytes { b in try applyingColor(decodePixels(b, options: options), b, options: options) }
    }

    private static func decodePixels(_ b: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws -> WebImage {
        var header = try parseHeader(b, options: options)
        let width = header.width, height = header.height
        guard header.pixelOffset > 0, header.pixelOffset < b.count else {
            throw WebImageError(.badImageData, "BMP pixel data offset \(header.pixelOffset) is outside the \(b.count) bytes of data")
        }
        let rle = header.compression == 1 || header.compression == 2
        if header.alphaFromRGBHeader, !anyAlpha(b, header: header) {
            // A BI_RGB header states an alpha mask but every pixel's alpha is 0: opaque.
            header.masks?.alpha = 0
        }
        var hasAlpha = rle || ([16, 32].contains(header.bitsPerPixel) && (header.masks?.alpha ?? 0) != 0)
        let size = PixelSize(width: width, height: height)
        let target = options.targetPixelSize(for: size)
        // Row `row` of the file is image row `y`.
        func imageRow(_ row: Int) -> Int { header.topDown ? row : height - 1 - row }

        if target != size, var reducer = BlockReducer(source: size, target: target, order: .contiguous) {
            var line = [UInt8](repeating: 0, count: width * 4)
            let complete = line.withUnsafeMutableBytes { line in
                decodeRows(b, header: header, line: line) { row, pixels in
                    reducer.add(row: imageRow(row), pixels: pixels.baseAddress!, count: width)
                }
            }
            if !complete { hasAlpha = true }
            var metadata: ImageMetadata = [.decoded, .thumbnail]
            if !complete { metadata.insert(.incremental) }
            let bitmap = try reducer.thumbnail(hasAlpha: hasAlpha)
            return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .bmp, metadata: metadata)
        }

        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var complete = true
        pixels.withUnsafeMutableBytes { out in
            if rle {
                // RLE rows go through a row buffer (the stream may skip pixels and rows).
                var line = [UInt8](repeating: 0, count: width * 4)
                complete = line.withUnsafeMutableBytes { line in
                    decodeRows(b, header: header, line: line) { row, pixels in
                        (out.baseAddress! + imageRow(row) * width * 4).copyMemory(from: pixels.baseAddress!, byteCount: width * 4)
                    }
                }
            } else {
                complete = decodeUncompressed(b, header: header) { row in
                    decodeRow(b, at: header.pixelOffset + row * rowBytes(header), header: header, into: out, offset: imageRow(row) * width * 4)
                }
            }
        }
        if !complete { hasAlpha = true }
        var bitmap = try Bitmap(width: width, height: height, bytes: pixels, hasAlpha: hasAlpha)
        var metadata: ImageMetadata = .decoded
        if target != bitmap.size {
            bitmap = try Thumbnail.resize(bitmap, to: target)
            metadata.insert(.thumbnail)
        }
        if !complete { metadata.insert(.incremental) }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .bmp, metadata: metadata)
    }

    /// The bytes of one uncompressed row in the file (padded to 4 bytes).
    private static func rowBytes(_ header: Header) -> Int {
        ((header.width * header.bitsPerPixel + 31) / 32) * 4
    }

    /// Calls `row` with each uncompressed file row whose bytes are all there, in file order.
    /// - Returns: Whether every row was there.
    private static func decodeUncompressed(_ b: UnsafeRawBufferPointer, header: Header, row: (Int) -> Void) -> Bool {
        let stride = rowBytes(header)
        let needed = (header.width * header.bitsPerPixel + 7) / 8
        for index in 0..<header.height {
            let start = header.pixelOffset + index * stride
            guard start + needed <= b.count else { return false }
            row(index)
        }
        return true
    }

    /// Decodes the pixel rows one at a time into `line` (`width * 4` bytes) and hands each to
    /// `emit` with its file row (RLE: only the rows the stream draws in; uncompressed: every row
    /// whose bytes are there).
    /// - Returns: Whether the data held every row (RLE: reached its end code or the last row).
    private static func decodeRows(
        _ b: UnsafeRawBufferPointer, header: Header, line: UnsafeMutableRawBufferPointer,
        emit: (Int, UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        if header.compression == 1 || header.compression == 2 {
            return decodeRLE(b, header: header, line: line, emit: emit)
        }
        return decodeUncompressed(b, header: header) { row in
            decodeRow(b, at: header.pixelOffset + row * rowBytes(header), header: header, into: line, offset: 0)
            emit(row, UnsafeRawBufferPointer(line))
        }
    }

    /// Whether a 32-bit file has a pixel with a non-zero value under the alpha mask (the rule
    /// for a BI_RGB header that states one: its alpha counts only then). Reads the file rows
    /// that are there; allocates nothing.
    private static func anyAlpha(_ b: UnsafeRawBufferPointer, header: Header) -> Bool {
        guard header.bitsPerPixel == 32, let mask = header.masks?.alpha, mask != 0 else { return false }
        let stride = rowBytes(header)
        for row in 0..<header.height {
            let start = header.pixelOffset + row * stride
            guard start + header.width * 4 <= b.count else { return false }
            for x in 0..<header.width where u32(b, start + x * 4) & mask != 0 { return true }
        }
        return false
    }

    private static func decodeRow(_ b: UnsafeRawBufferPointer, at start: Int, header: Header, into out: UnsafeMutableRawBufferPointer, offset: Int) {
        let width = header.width
        switch header.bitsPerPixel {
        case 1, 4, 8:
            let depth = header.bitsPerPixel, perByte = 8 / depth, mask = (1 << depth) - 1
            for x in 0..<width {
                let byte = Int(b[start + x / perByte])
                let index = (byte >> (8 - depth * (x % perByte + 1))) & mask
                out.storeBytes(of: header.palette[index], toByteOffset: offset + x * 4, as: UInt32.self)
            }
        case 24:
            for x in 0..<width {
                let p = start + x * 3
                let value = UInt32(b[p + 2]) | UInt32(b[p + 1]) << 8 | UInt32(b[p]) << 16 | 0xFF00_0000
                out.storeBytes(of: value, toByteOffset: offset + x * 4, as: UInt32.self)
            }
        case 32 where header.masks == nil:
            for x in 0..<width {
                let p = start + x * 4
                let value = UInt32(b[p + 2]) | UInt32(b[p + 1]) << 8 | UInt32(b[p]) << 16 | 0xFF00_0000  // 4th byte unused
                out.storeBytes(of: value, toByteOffset: offset + x * 4, as: UInt32.self)
            }
        default:  // 16 or 32 bits with masks
            guard let masks = header.masks else { return }
            let bytesPerPixel = header.bitsPerPixel / 8
            let channels = [masks.red, masks.green, masks.blue, masks.alpha].map(MaskChannel.init)
            for x in 0..<width {
                let p = start + x * bytesPerPixel
                let raw = bytesPerPixel == 2 ? UInt32(u16(b, p)) : u32(b, p)
                let r = channels[0].value(raw), g = channels[1].value(raw), bl = channels[2].value(raw)
                let a = masks.alpha == 0 ? 255 : channels[3].value(raw)
                out.storeBytes(of: r | g << 8 | bl << 16 | a << 24, toByteOffset: offset + x * 4, as: UInt32.self)
            }
        }
    }

    /// One BITFIELDS channel: shift and scale to 8 bits.
    private struct MaskChannel {
        let mask: UInt32
        let shift: UInt32
        let maximum: UInt32

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            maximum = mask == 0 ? 0 : mask >> shift
        }

        func value(_ raw: UInt32) -> UInt32 {
            guard maximum > 0 else { return 0 }
            let v = UInt64((raw & mask) >> shift)
            return UInt32((v * 255 + UInt64(maximum) / 2) / UInt64(maximum))
        }
    }

    /// RLE8 / RLE4, a row at a time: each file row the stream draws in is decoded into `line`
    /// (pixels it skips stay transparent) and handed to `emit`; rows it skips are not.
    /// Returns whether the stream reached its end-of-bitmap code (or the last row).
    private static func decodeRLE(
        _ b: UnsafeRawBufferPointer, header: Header, line: UnsafeMutableRawBufferPointer,
        emit: (Int, UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        let width = header.width, height = header.height
        let four = header.compression == 2
        var p = header.pixelOffset
        var x = 0, row = 0
        var dirty = false
        line.initializeMemory(as: UInt8.self, repeating: 0)
        defer {
            if dirty { emit(row, UnsafeRawBufferPointer(line)) }
        }
        func put(_ index: Int) {
            guard x < width, row < height else { return }
            line.storeBytes(of: header.palette[index & 0xFF], toByteOffset: x * 4, as: UInt32.self)
            dirty = true
            x += 1
        }
        while p + 1 < b.count, row < height {
            let first = Int(b[p]), second = Int(b[p + 1])
            p += 2
            if first > 0 {
                for i in 0..<first {
                    put(four ? (i % 2 == 0 ? second >> 4 : second & 0x0F) : second)
                }
                continue
            }
            switch second {
            case 0, 2:
                var nextX = 0, nextRow = row + 1
                if second == 2 {
                    guard p + 1 < b.count else { return false }
                    nextX = x + Int(b[p])
                    nextRow = row + Int(b[p + 1])
                    p += 2
                }
                if nextRow != row, dirty {
                    emit(row, UnsafeRawBufferPointer(line))
                    line.initializeMemory(as: UInt8.self, repeating: 0)
                    dirty = false
                }
                x = nextX
                row = nextRow
            case 1:
                return true
            default:
                let count = second
                let bytes = four ? (count + 1) / 2 : count
                guard p + bytes <= b.count else { return false }
                for i in 0..<count {
                    put(four ? (i % 2 == 0 ? Int(b[p + i / 2]) >> 4 : Int(b[p + i / 2]) & 0x0F) : Int(b[p + i]))
                }
                p += (bytes + 1) & ~1  // runs are padded to 16 bits
            }
        }
        return row >= height
    }
}
