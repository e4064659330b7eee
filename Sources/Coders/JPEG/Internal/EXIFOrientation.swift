import WebImageCore

/// The EXIF orientation tag (0x0112) and its application to pixels.
///
/// Values 1...8 as in the TIFF/EXIF specification: 1 is upright; 2 mirrored horizontally;
/// 3 rotated 180°; 4 mirrored vertically; 5 transposed (mirror along the main diagonal);
/// 6 needs a 90° clockwise rotation to be upright; 7 transversed; 8 needs a 90° counter-clockwise
/// rotation. Anything else is treated as 1.
enum EXIFOrientation {
    /// The orientation in an EXIF payload (the TIFF structure after `"Exif\0\0"`), 1 if the tag
    /// is malformed, `nil` if there is none. Every read is bounds-checked.
    static func orientation(inTIFF bytes: UnsafeRawBufferPointer) -> Int? {
        let count = bytes.count
        guard count >= 8 else { return nil }
        let littleEndian: Bool
        if bytes[0] == 0x49, bytes[1] == 0x49 {
            littleEndian = true
        } else if bytes[0] == 0x4D, bytes[1] == 0x4D {
            littleEndian = false
        } else {
            return nil
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= count else { return nil }
            return littleEndian ? Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 : Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        }
        func u32(_ offset: Int) -> Int? {
            guard let high = u16(littleEndian ? offset + 2 : offset), let low = u16(littleEndian ? offset : offset + 2) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for index in 0..<min(entries, 1000) {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard u16(entry + 2) == 3, let value = u16(entry + 8), (1...8).contains(value) else { return 1 }
                return value
            }
        }
        return nil
    }

    /// The `tiff:Orientation` of an XMP packet (attribute or element form), or `nil`. Used when
    /// the EXIF data has no orientation, as ImageIO and Pillow do.
    static func orientation(inXMP bytes: UnsafeRawBufferPointer) -> Int? {
        let needle = Array("tiff:Orientation".utf8)
        let count = bytes.count
        var index = 0
        while index + needle.count < count {
            var matches = true
            for (offset, byte) in needle.enumerated() where bytes[index + offset] != byte {
                matches = false
                break
            }
            if matches {
                var cursor = index + needle.count
                // Skip `="`, `='` or `>` and blanks, then read one digit.
                var skipped = 0
                while cursor < count, skipped < 8, [UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ">"), UInt8(ascii: " ")].contains(bytes[cursor]) {
                    cursor += 1
                    skipped += 1
                }
                if skipped > 0, cursor < count, (UInt8(ascii: "1")...UInt8(ascii: "8")).contains(bytes[cursor]) {
                    return Int(bytes[cursor] - UInt8(ascii: "0"))
                }
            }
            index += 1
        }
        return nil
    }

    /// Whether `orientation` swaps width and height.
    static func swapsAxes(_ orientation: Int) -> Bool {
        (5...8).contains(orientation)
    }

    /// The size after applying `orientation` to pixels of `size`.
    static func orientedSize(_ size: PixelSize, _ orientation: Int) -> PixelSize {
        swapsAxes(orientation) ? PixelSize(width: size.height, height: size.width) : size
    }

    /// `bitmap` turned upright according to `orientation`.
    static func apply(_ orientation: Int, to bitmap: Bitmap) throws -> Bitmap {
        guard (2...8).contains(orientation) else { return bitmap }
        let width = bitmap.width, height = bitmap.height
        let outWidth = swapsAxes(orientation) ? height : width
        let outHeight = swapsAxes(orientation) ? width : height
        let sourceRow = bitmap.bytesPerRow
        let bytes = bitmap.bytes.withUnsafeBytes { source in
            PixelBuffer.make(count: outWidth * outHeight * 4) { output in
                let target = UnsafeMutableRawPointer(output.baseAddress!).assumingMemoryBound(to: UInt32.self)
                for y in 0..<height {
                    let row = source.baseAddress! + y * sourceRow
                    for x in 0..<width {
                        let pixel = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                        let (tx, ty): (Int, Int)
                        switch orientation {
                        case 2: (tx, ty) = (width - 1 - x, y)
                        case 3: (tx, ty) = (width - 1 - x, height - 1 - y)
                        case 4: (tx, ty) = (x, height - 1 - y)
                        case 5: (tx, ty) = (y, x)
                        case 6: (tx, ty) = (height - 1 - y, x)
                        case 7: (tx, ty) = (height - 1 - y, width - 1 - x)
                        default: (tx, ty) = (y, width - 1 - x)  // 8
                        }
                        target[ty * outWidth + tx] = pixel
                    }
                }
            }
        }
        return try Bitmap(width: outWidth, height: outHeight, bytes: bytes, hasAlpha: bitmap.hasAlpha)
    }
}
