/// A reader of the few EXIF tags the photo index needs, over the TIFF structure (TIFF 6.0 and
/// EXIF 2.32): byte order, IFD0, the Exif sub-IFD and IFD1. Every read is bounds-checked; a
/// malformed structure gives what could be read, never a crash; IFD loops are cut.
enum EXIFReader {
    /// The tags, or `nil` if `tiff` is not a TIFF structure.
    static func read(tiff: [UInt8]) -> EXIFInfo? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true  // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return nil
        }
        let bytes = EndianBytes(bytes: tiff, littleEndian: littleEndian)
        guard bytes.u16(2) == 42, let ifd0 = bytes.u32(4) else { return nil }
        var info = EXIFInfo()
        guard let zeroth = entries(of: ifd0, in: bytes) else { return info }

        if let entry = zeroth.entries[0x0112], entry.type == 3, let value = entry.integer(in: bytes), (1...8).contains(value) {
            info.orientation = value
        }
        if let pointer = zeroth.entries[0x8769]?.integer(in: bytes), pointer != ifd0, let exif = entries(of: pointer, in: bytes) {
            info.dateTimeOriginal = exif.entries[0x9003]?.ascii(in: bytes)
            info.offsetTimeOriginal = exif.entries[0x9011]?.ascii(in: bytes)
        }
        if let next = zeroth.next, next != ifd0, let first = entries(of: next, in: bytes) {
            let compression = first.entries[0x0103]?.integer(in: bytes)
            if compression == nil || compression == 6,
               let offset = first.entries[0x0201]?.integer(in: bytes),
               let length = first.entries[0x0202]?.integer(in: bytes),
               offset >= 8, length > 0, offset + length <= tiff.count {
                info.thumbnailRange = offset..<(offset + length)
            }
        }
        return info
    }

    /// One IFD entry: tag, type, count, and where its value is.
    struct Entry {
        var type: Int
        var count: Int
        /// The offset of the value in the TIFF bytes (inline in the entry when it fits 4 bytes).
        var valueOffset: Int

        /// A SHORT or LONG value.
        func integer(in bytes: EndianBytes) -> Int? {
            switch type {
            case 3: bytes.u16(valueOffset)
            case 4: bytes.u32(valueOffset)
            default: nil
            }
        }

        /// An ASCII value without its NUL terminator and trailing blanks; `nil` if empty.
        func ascii(in bytes: EndianBytes) -> String? {
            guard type == 2, count > 0, count <= 256, valueOffset >= 0, valueOffset + count <= bytes.bytes.count else { return nil }
            var raw = Array(bytes.bytes[valueOffset..<(valueOffset + count)])
            if let nul = raw.firstIndex(of: 0) { raw.removeSubrange(nul...) }
            while let last = raw.last, last == 0x20 { raw.removeLast() }
            guard !raw.isEmpty, raw.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            return String(decoding: raw, as: UTF8.self)
        }
    }

    /// The entries of the IFD at `offset` (the first one of each tag) and the next IFD's offset.
    static func entries(of offset: Int, in bytes: EndianBytes) -> (entries: [Int: Entry], next: Int?)? {
        guard offset >= 8, let count = bytes.u16(offset), count <= 1000,
              offset + 2 + count * 12 <= bytes.bytes.count else { return nil }
        var entries: [Int: Entry] = [:]
        for index in 0..<count {
            let entry = offset + 2 + index * 12
            guard let tag = bytes.u16(entry), let type = bytes.u16(entry + 2), let valueCount = bytes.u32(entry + 4) else { continue }
            let unit: Int
            switch type {
            case 1, 2, 6, 7: unit = 1
            case 3, 8: unit = 2
            case 4, 9, 11: unit = 4
            case 5, 10, 12: unit = 8
            default: continue
            }
            let (size, overflow) = unit.multipliedReportingOverflow(by: valueCount)
            guard !overflow else { continue }
            let valueOffset: Int
            if size <= 4 {
                valueOffset = entry + 8
            } else {
                guard let pointer = bytes.u32(entry + 8) else { continue }
                valueOffset = pointer
            }
            if entries[tag] == nil {
                entries[tag] = Entry(type: type, count: valueCount, valueOffset: valueOffset)
            }
        }
        let next = bytes.u32(offset + 2 + count * 12).flatMap { $0 >= 8 ? $0 : nil }
        return (entries, next)
    }
}
