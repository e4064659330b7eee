import Foundation
import WebImageCore

/// The directory of an ICO or CUR file (`ICONDIR` and its `ICONDIRENTRY`s), checked: every
/// entry's data lies inside the file, after the directory, and no two entries overlap.
struct ICODirectory {
    /// One entry, as the directory states it (sizes of 0 mean 256).
    struct Entry {
        /// The entry's position in the directory.
        var index: Int
        /// The size the directory states (0 bytes read as 256).
        var statedSize: PixelSize
        /// The palette size the directory states (0: none or 256).
        var colorCount: Int
        /// ICO: planes; CUR: the hotspot's x.
        var planesOrHotspotX: Int
        /// ICO: bits per pixel; CUR: the hotspot's y.
        var bitCountOrHotspotY: Int
        /// The size of the entry's data.
        var byteCount: Int
        /// Where the entry's data starts in the file.
        var offset: Int
    }

    /// 1: icon, 2: cursor.
    var type: Int
    /// The entries, in directory order.
    var entries: [Entry]

    /// The most entries accepted (real icons have a handful; the count field allows 65535).
    static let maximumEntries = 512

    /// Whether `data` starts like an ICO (type 1) or CUR (type 2) directory with entries.
    static func sniff(_ data: Data) -> Int? {
        guard data.count >= 6 else { return nil }
        let b = data.startIndex
        guard data[b] == 0, data[b + 1] == 0, data[b + 3] == 0, data[b + 2] == 1 || data[b + 2] == 2 else { return nil }
        guard data[b + 4] != 0 || data[b + 5] != 0 else { return nil }
        return Int(data[b + 2])
    }

    /// Parses and checks the directory of `data`.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` naming what is wrong.
    static func parse(_ data: Data) throws -> ICODirectory {
        let bytes = [UInt8](data.prefix(6 + 16 * maximumEntries))
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        guard bytes.count >= 6, bytes[0] == 0, bytes[1] == 0, bytes[3] == 0, bytes[2] == 1 || bytes[2] == 2 else {
            throw WebImageError(.badImageData, "data of \(data.count) bytes is not an ICO or CUR (no icon directory header)")
        }
        let type = Int(bytes[2])
        let kind = type == 1 ? "ICO" : "CUR"
        let count = u16(4)
        guard count > 0 else { throw WebImageError(.badImageData, "\(kind) data of \(data.count) bytes has a directory of 0 entries") }
        guard count <= maximumEntries else {
            throw WebImageError(.badImageData, "\(kind) data of \(data.count) bytes has a directory of \(count) entries (more than \(maximumEntries))")
        }
        let directoryEnd = 6 + 16 * count
        guard data.count >= directoryEnd else {
            throw WebImageError(.badImageData, "\(kind) data of \(data.count) bytes is truncated inside its directory of \(count) entries (\(directoryEnd) bytes)")
        }
        var entries: [Entry] = []
        for index in 0..<count {
            let o = 6 + 16 * index
            let width = bytes[o] == 0 ? 256 : Int(bytes[o])
            let height = bytes[o + 1] == 0 ? 256 : Int(bytes[o + 1])
            let entry = Entry(index: index, statedSize: PixelSize(width: width, height: height), colorCount: Int(bytes[o + 2]),
                              planesOrHotspotX: u16(o + 4), bitCountOrHotspotY: u16(o + 6), byteCount: u32(o + 8), offset: u32(o + 12))
            guard entry.byteCount > 0 else {
                throw WebImageError(.badImageData, "\(kind) entry \(index) has a data size of 0 bytes")
            }
            guard entry.offset >= directoryEnd else {
                throw WebImageError(.badImageData, "\(kind) entry \(index) points at offset \(entry.offset), inside the directory (which ends at \(directoryEnd))")
            }
            let (end, overflow) = entry.offset.addingReportingOverflow(entry.byteCount)
            guard !overflow, end <= data.count else {
                throw WebImageError(.badImageData, "\(kind) entry \(index) (\(entry.byteCount) bytes at offset \(entry.offset)) points outside the file of \(data.count) bytes")
            }
            entries.append(entry)
        }
        let sorted = entries.sorted { $0.offset < $1.offset }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where next.offset < previous.offset + previous.byteCount {
            throw WebImageError(.badImageData, "\(kind) entries \(previous.index) and \(next.index) overlap (offsets \(previous.offset)+\(previous.byteCount) and \(next.offset))")
        }
        return ICODirectory(type: type, entries: entries)
    }
}
