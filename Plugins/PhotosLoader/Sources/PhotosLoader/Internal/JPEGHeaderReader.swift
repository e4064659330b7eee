import WebImageCore

/// Walks a JPEG's marker segments from SOI to the first frame header (SOFn), reading only the
/// segment headers, the first EXIF APP1 body and, when needed, the XMP APP1 body: a handful of
/// small reads, whatever the file's size.
enum JPEGHeaderReader {
    /// More segments than this before the frame header means a damaged or hostile file.
    static let maximumSegments = 4096

    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// Reads the header.
    /// - Parameter readsMetadata: Read EXIF and XMP (not for an embedded thumbnail).
    /// - Throws: ``HeaderProblem`` naming what is wrong and where; a ``SystemCallError`` if
    ///   reading fails.
    static func read(_ source: some ByteSource, readsMetadata: Bool = true) throws -> JPEGHeader {
        let total = source.count
        let start = try source.bytes(at: 0, count: 3)
        guard start == [0xFF, 0xD8, 0xFF] else {
            throw HeaderProblem(reason: "no JPEG start-of-image marker")
        }
        var offset = 2
        var exif: EXIFInfo?
        var thumbnail: ThumbnailLocation?
        var xmp: (offset: Int, length: Int)?
        for _ in 0..<maximumSegments {
            let marker = try source.bytes(at: offset, count: 4)
            guard marker.count >= 2 else {
                throw HeaderProblem(reason: "the data ends at byte \(offset) of \(total), before the frame header (SOF)")
            }
            guard marker[0] == 0xFF else {
                throw HeaderProblem(reason: "expected a marker at byte \(offset), found 0x\(hex(marker[0]))")
            }
            let code = marker[1]
            switch code {
            case 0xFF:
                offset += 1  // a fill byte before a marker
                continue
            case 0x01, 0xD0...0xD7:
                offset += 2  // markers without a length
                continue
            case 0xD8:
                throw HeaderProblem(reason: "a second start-of-image marker at byte \(offset)")
            case 0xD9:
                throw HeaderProblem(reason: "the image ends (EOI at byte \(offset)) before any frame header")
            case 0xDA:
                throw HeaderProblem(reason: "scan data (SOS at byte \(offset)) comes before any frame header")
            default:
                break
            }
            guard marker.count == 4 else {
                throw HeaderProblem(reason: "the data ends inside the marker 0xFF\(hex(code)) at byte \(offset)")
            }
            let length = Int(marker[2]) << 8 | Int(marker[3])
            guard length >= 2 else {
                throw HeaderProblem(reason: "segment 0xFF\(hex(code)) at byte \(offset) has the invalid length \(length)")
            }
            guard offset + 2 + length <= total else {
                throw HeaderProblem(reason: "segment 0xFF\(hex(code)) at byte \(offset) (\(length) bytes) runs past the end of the \(total)-byte file")
            }
            if isFrameHeader(code) {
                let frame = try source.bytes(at: offset + 4, count: 5)
                guard length >= 8, frame.count == 5 else {
                    throw HeaderProblem(reason: "frame header 0xFF\(hex(code)) at byte \(offset) is too short (\(length) bytes)")
                }
                let height = Int(frame[1]) << 8 | Int(frame[2])
                let width = Int(frame[3]) << 8 | Int(frame[4])
                guard width > 0, height > 0 else {
                    throw HeaderProblem(reason: "frame header at byte \(offset) declares a \(width)x\(height) image (a height of 0 defined later by DNL is not supported)")
                }
                var header = JPEGHeader(storedSize: PixelSize(width: width, height: height), exif: exif, thumbnail: thumbnail)
                if readsMetadata, exif?.orientation == nil, let xmp {
                    header.xmpOrientation = xmpOrientation(in: try source.bytes(at: xmp.offset, count: xmp.length))
                }
                return header
            }
            if readsMetadata, code == 0xE1 {
                let bodyOffset = offset + 4, bodyLength = length - 2
                let signature = try source.bytes(at: bodyOffset, count: min(bodyLength, xmpSignature.count))
                if exif == nil, signature.starts(with: exifSignature) {
                    let tiffOffset = bodyOffset + exifSignature.count
                    let tiff = try source.bytes(at: tiffOffset, count: bodyLength - exifSignature.count)
                    exif = EXIFReader.read(tiff: tiff)
                    if let range = exif?.thumbnailRange {
                        thumbnail = embeddedThumbnail(Array(tiff[range]), at: tiffOffset + range.lowerBound)
                    }
                } else if xmp == nil, signature == xmpSignature {
                    xmp = (bodyOffset + xmpSignature.count, bodyLength - xmpSignature.count)
                }
            }
            offset += 2 + length
        }
        throw HeaderProblem(reason: "more than \(maximumSegments) segments before the frame header")
    }

    /// SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isFrameHeader(_ code: UInt8) -> Bool {
        (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    /// The location of an EXIF thumbnail whose own header reads, else `nil`.
    static func embeddedThumbnail(_ bytes: [UInt8], at offset: Int) -> ThumbnailLocation? {
        guard let header = try? read(MemoryBytes(storage: bytes), readsMetadata: false) else { return nil }
        return ThumbnailLocation(offset: offset, length: bytes.count, storedSize: header.storedSize)
    }

    /// The `tiff:Orientation` of an XMP packet (`tiff:Orientation="6"` or
    /// `<tiff:Orientation>6</tiff:Orientation>`), or `nil`.
    static func xmpOrientation(in bytes: [UInt8]) -> Int? {
        let needle = Array("tiff:Orientation".utf8)
        guard bytes.count > needle.count else { return nil }
        var index = 0
        while index + needle.count < bytes.count {
            if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle {
                var cursor = index + needle.count
                var skipped = 0
                let separators: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ">"), UInt8(ascii: " ")]
                while cursor < bytes.count, skipped < 8, separators.contains(bytes[cursor]) {
                    cursor += 1
                    skipped += 1
                }
                if skipped > 0, cursor < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "8")).contains(bytes[cursor]) {
                    return Int(bytes[cursor] - UInt8(ascii: "0"))
                }
            }
            index += 1
        }
        return nil
    }

    /// `byte` as two uppercase hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}
