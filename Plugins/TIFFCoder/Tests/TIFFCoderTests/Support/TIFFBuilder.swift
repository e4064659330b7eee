import Foundation

/// Writes little-endian classic TIFFs tag by tag, for inputs no encoder would make: claimed
/// sizes far over the data, strips that run past the end of the file.
struct TIFFBuilder {
    /// One IFD entry: tag, type (3 SHORT, 4 LONG) and values.
    struct Tag {
        var tag: UInt16
        var type: UInt16
        var values: [UInt32]
    }

    var tags: [Tag] = []

    mutating func short(_ tag: UInt16, _ values: UInt32...) { tags.append(Tag(tag: tag, type: 3, values: values)) }
    mutating func long(_ tag: UInt16, _ values: UInt32...) { tags.append(Tag(tag: tag, type: 4, values: values)) }

    /// A baseline 8-bit RGB image of `width` x `height` in one strip of `stripBytes` claimed
    /// bytes whose data (`payload`) follows the directory.
    static func rgb(width: UInt32, height: UInt32, rowsPerStrip: UInt32, compression: UInt32 = 1, stripBytes: UInt32, payload: [UInt8]) -> Data {
        var builder = TIFFBuilder()
        builder.long(256, width)
        builder.long(257, height)
        builder.short(258, 8, 8, 8)
        builder.short(259, compression)
        builder.short(262, 2)
        builder.short(277, 3)
        builder.long(278, rowsPerStrip)
        builder.short(284, 1)
        return builder.data(stripBytes: stripBytes, payload: payload)
    }

    /// The file: header, the IFD (tags sorted, StripOffsets and StripByteCounts added), the
    /// out-of-line values, then `payload`.
    func data(stripBytes: UInt32, payload: [UInt8]) -> Data {
        var tags = self.tags
        tags.append(Tag(tag: 273, type: 4, values: [0]))  // StripOffsets, patched below
        tags.append(Tag(tag: 279, type: 4, values: [stripBytes]))
        tags.sort { $0.tag < $1.tag }
        let ifdSize = 2 + tags.count * 12 + 4
        var extra: [UInt8] = []
        let extraStart = 8 + ifdSize
        var extraOffsets: [Int: UInt32] = [:]
        for (index, tag) in tags.enumerated() where tag.values.count * (tag.type == 3 ? 2 : 4) > 4 {
            extraOffsets[index] = UInt32(extraStart + extra.count)
            for value in tag.values { extra += tag.type == 3 ? le16(UInt16(value)) : le32(value) }
        }
        let payloadStart = UInt32(extraStart + extra.count)
        var out: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + le16(UInt16(tags.count))
        for (index, tag) in tags.enumerated() {
            let values = tag.tag == 273 ? [payloadStart] : tag.values
            out += le16(tag.tag) + le16(tag.type) + le32(UInt32(values.count))
            if let offset = extraOffsets[index] {
                out += le32(offset)
            } else if tag.type == 3 {
                var field = values.flatMap { le16(UInt16($0)) }
                while field.count < 4 { field.append(0) }
                out += field
            } else {
                out += le32(values[0])
            }
        }
        out += le32(0) + extra + payload
        return Data(out)
    }

    private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
}
