import Foundation

/// Writes EXIF APP1 segments by hand (TIFF header, IFD0, Exif IFD, IFD1 with a JPEG thumbnail)
/// in either byte order, for the generated libraries of the tests.
struct EXIFBuilder {
    var littleEndian = false
    var orientation: Int?
    var dateTimeOriginal: String?
    var offsetTimeOriginal: String?
    var thumbnail: [UInt8]?
    /// IFD1's Compression tag (6 = JPEG; `nil` leaves the tag out).
    var thumbnailCompression: Int? = 6
    /// Makes IFD1's "next IFD" point back at IFD0 (a loop a reader must cut).
    var loopsBackToIFD0 = false

    private struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        /// Inline value bytes (<= 4) or out-of-line data.
        var data: [UInt8]
    }

    func u16(_ value: Int) -> [UInt8] {
        let bytes = [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        return littleEndian ? bytes.reversed() : bytes
    }

    func u32(_ value: Int) -> [UInt8] {
        let bytes = [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        return littleEndian ? bytes.reversed() : bytes
    }

    private func ascii(_ tag: Int, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: bytes.count, data: bytes)
    }

    /// The TIFF structure (what follows `"Exif\0\0"`).
    func tiff() -> [UInt8] {
        var exif: [Entry] = []
        if let dateTimeOriginal { exif.append(ascii(0x9003, dateTimeOriginal)) }
        if let offsetTimeOriginal { exif.append(ascii(0x9011, offsetTimeOriginal)) }
        var ifd0: [Entry] = []
        if let orientation { ifd0.append(Entry(tag: 0x0112, type: 3, count: 1, data: u16(orientation) + [0, 0])) }
        var ifd1: [Entry] = []
        if let thumbnail {
            if let thumbnailCompression { ifd1.append(Entry(tag: 0x0103, type: 3, count: 1, data: u16(thumbnailCompression) + [0, 0])) }
            ifd1.append(Entry(tag: 0x0201, type: 4, count: 1, data: []))  // the offset, known below
            ifd1.append(Entry(tag: 0x0202, type: 4, count: 1, data: u32(thumbnail.count)))
        }
        let hasExifIFD = !exif.isEmpty
        if hasExifIFD { ifd0.append(Entry(tag: 0x8769, type: 4, count: 1, data: [])) }  // the pointer, known below
        if ifd0.isEmpty { ifd0.append(Entry(tag: 0x010F, type: 2, count: 4, data: Array("Cam".utf8) + [0])) }  // Make: IFD0 is never empty

        func size(_ entries: [Entry]) -> Int { entries.isEmpty ? 0 : 2 + entries.count * 12 + 4 }
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + size(ifd0)
        let ifd1Offset = exifOffset + size(exif)
        let dataStart = ifd1Offset + size(ifd1)

        // Out-of-line values (longer than 4 bytes), word-aligned, then the thumbnail.
        var data: [UInt8] = []
        func valueField(_ entry: Entry) -> [UInt8] {
            switch entry.tag {
            case 0x8769: return u32(exifOffset)
            default:
                if entry.data.count <= 4 { return entry.data + [UInt8](repeating: 0, count: 4 - entry.data.count) }
                let offset = dataStart + data.count
                data += entry.data
                if data.count % 2 == 1 { data.append(0) }
                return u32(offset)
            }
        }
        var out: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(ifd0Offset)
        var fields0: [[UInt8]] = ifd0.map(valueField)
        let fieldsExif: [[UInt8]] = exif.map(valueField)
        let thumbnailOffset = dataStart + data.count
        let fields1: [[UInt8]] = ifd1.map { $0.tag == 0x0201 ? u32(thumbnailOffset) : valueField($0) }
        if let thumbnail { data += thumbnail }
        func write(_ entries: [Entry], _ fields: [[UInt8]], next: Int) {
            guard !entries.isEmpty else { return }
            out += u16(entries.count)
            for (entry, field) in zip(entries, fields) {
                out += u16(entry.tag) + u16(entry.type) + u32(entry.count) + field
            }
            out += u32(next)
        }
        // Tags in ascending order within each IFD, as TIFF requires.
        let order0 = ifd0.indices.sorted { ifd0[$0].tag < ifd0[$1].tag }
        fields0 = order0.map { fields0[$0] }
        write(order0.map { ifd0[$0] }, fields0, next: ifd1.isEmpty ? 0 : ifd1Offset)
        write(exif, fieldsExif, next: 0)
        write(ifd1, fields1, next: loopsBackToIFD0 ? ifd0Offset : 0)
        precondition(out.count == dataStart)
        return out + data
    }

    /// The APP1 segment: marker, length, `"Exif\0\0"`, TIFF.
    func segment() -> [UInt8] {
        let body = Array("Exif".utf8) + [0, 0] + tiff()
        let length = body.count + 2
        precondition(length <= 0xFFFF, "an APP1 segment holds at most 65533 bytes")
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    /// `jpeg` with this EXIF segment right after its SOI marker.
    func inserted(into jpeg: Data) -> Data {
        var bytes = Array(jpeg)
        bytes.insert(contentsOf: segment(), at: 2)
        return Data(bytes)
    }
}

/// An XMP APP1 segment holding `tiff:Orientation`.
func xmpSegment(orientation: Int) -> [UInt8] {
    let packet = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF><rdf:Description tiff:Orientation=\"\(orientation)\"/></rdf:RDF></x:xmpmeta>"
    let body = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(packet.utf8)
    let length = body.count + 2
    return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
}
