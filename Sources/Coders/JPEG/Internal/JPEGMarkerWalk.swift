import Foundation
import WebImageCore

/// A walk over the markers of a JPEG (in memory, or a file read a window at a time), without decoding anything: the frame
/// header (SOF: size, components, sampling), the first EXIF and XMP APP1 payloads before the
/// first scan, and every scan (SOS) with the blocks it visits. Entropy-coded data is skipped by
/// looking for the next marker (0xFF followed by a byte other than 0x00, 0xFF or RSTn).
///
/// Linear in the data and bounds-checked everywhere; data that ends early ends the walk.
struct JPEGMarkerWalk {
    struct Component {
        var id: UInt8
        var horizontal: Int
        var vertical: Int
    }

    var width = 0
    var height = 0
    /// Whether the frame is progressive (SOF2, SOF6, SOF10, SOF14).
    var progressive = false
    var sawFrame = false
    var components: [Component] = []
    /// The ranges of the first EXIF payload (after `Exif\0\0`) and the first XMP packet, in the
    /// markers before the first scan (the ones libjpeg keeps).
    var exif: Range<Int>?
    var xmp: Range<Int>?
    /// The APP2 ICC_PROFILE segments before the first scan: (sequence number, count, payload).
    var iccSegments: [(sequence: UInt8, count: UInt8, payload: Range<Int>)] = []
    /// Whether an Adobe APP14 marker came before the first scan.
    var sawAdobe = false
    /// The scans found (SOS markers after the frame header).
    var scans = 0
    /// The blocks all scans visit together: a non-interleaved scan visits every block of its one
    /// component, an interleaved scan every block of each of its components' MCUs.
    var blockVisits = 0
    /// The blocks of every component: what one pass over the whole image visits.
    var imageBlocks = 0

    private static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8)
    private static let exifSignature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
    private static let iccSignature = Array("ICC_PROFILE\u{0}".utf8)

    /// Walks `bytes`.
    /// - Parameter scans: Walk the whole data and count the scans (else stop at the first scan).
    static func walk<Bytes: JPEGBytes>(_ bytes: Bytes, scans countScans: Bool) -> JPEGMarkerWalk {
        var walk = JPEGMarkerWalk()
        let count = bytes.count
        guard count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return walk }
        var offset = 2
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func starts(with signature: [UInt8], at start: Int, end: Int) -> Bool {
            end - start >= signature.count && signature.indices.allSatisfy { bytes[start + $0] == signature[$0] }
        }
        while offset + 1 < count {
            guard bytes[offset] == 0xFF else {
                // Not at a marker: skip to the next one (garbage between segments).
                offset += 1
                continue
            }
            var marker = bytes[offset + 1]
            offset += 2
            while marker == 0xFF, offset < count {  // fill bytes
                marker = bytes[offset]
                offset += 1
            }
            if marker == 0xD9 { break }  // EOI
            if marker == 0x01 || marker == 0x00 || (0xD0...0xD8).contains(marker) { continue }
            guard offset + 2 <= count else { break }
            let length = u16(offset)
            guard length >= 2 else { break }
            let start = offset + 2
            let end = min(count, offset + length)
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                if !walk.sawFrame, end - start >= 6 {
                    walk.sawFrame = true
                    walk.progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                    walk.height = u16(start + 1)
                    walk.width = u16(start + 3)
                    let declared = Int(bytes[start + 5])
                    for index in 0..<declared {
                        let at = start + 6 + index * 3
                        guard at + 3 <= end else { break }
                        let sampling = bytes[at + 1]
                        walk.components.append(Component(id: bytes[at], horizontal: max(1, Int(sampling >> 4)), vertical: max(1, Int(sampling & 0x0F))))
                    }
                    walk.imageBlocks = walk.components.reduce(0) { $0 &+ walk.blocks(of: $1) }
                }
            case 0xE2 where walk.scans == 0:
                if starts(with: iccSignature, at: start, end: end), end - start >= iccSignature.count + 2, walk.iccSegments.count < 256 {
                    let at = start + iccSignature.count
                    walk.iccSegments.append((bytes[at], bytes[at + 1], (at + 2)..<end))
                }
            case 0xEE where walk.scans == 0:
                walk.sawAdobe = walk.sawAdobe || starts(with: Array("Adobe".utf8), at: start, end: end)
            case 0xE1 where walk.scans == 0:
                if walk.exif == nil, starts(with: exifSignature, at: start, end: end) {
                    walk.exif = start + exifSignature.count..<end
                } else if walk.xmp == nil, starts(with: xmpSignature, at: start, end: end) {
                    walk.xmp = start + xmpSignature.count..<end
                }
            case 0xDA:
                guard countScans else { return walk }
                if walk.sawFrame, end > start {
                    walk.scans += 1
                    let selectors = (0..<Int(bytes[start])).compactMap { index -> UInt8? in
                        let at = start + 1 + index * 2
                        return at < end ? bytes[at] : nil
                    }
                    walk.blockVisits = walk.blockVisits &+ walk.visits(of: selectors)
                }
                // Skip the entropy-coded data to the next marker.
                var next = offset + length
                while next + 1 < count {
                    if bytes[next] == 0xFF {
                        let following = bytes[next + 1]
                        if following != 0x00 && following != 0xFF && !(0xD0...0xD7).contains(following) { break }
                    }
                    next += 1
                }
                offset = max(next, offset + 2)
                continue
            default:
                break
            }
            offset += length
        }
        return walk
    }

    private var maxHorizontal: Int { components.map(\.horizontal).max() ?? 1 }
    private var maxVertical: Int { components.map(\.vertical).max() ?? 1 }

    /// The blocks of `component` (its samples rounded up to whole 8 x 8 blocks).
    func blocks(of component: Component) -> Int {
        let columns = (width * component.horizontal + maxHorizontal - 1) / maxHorizontal
        let rows = (height * component.vertical + maxVertical - 1) / maxVertical
        return ((columns + 7) / 8) &* ((rows + 7) / 8)
    }

    /// The blocks a scan of the components `selectors` visits.
    func visits(of selectors: [UInt8]) -> Int {
        let scanned = selectors.compactMap { id in components.first { $0.id == id } }
        if scanned.count == 1 { return blocks(of: scanned[0]) }
        let mcus = ((width + 8 * maxHorizontal - 1) / (8 * maxHorizontal)) &* ((height + 8 * maxVertical - 1) / (8 * maxVertical))
        return scanned.reduce(0) { $0 &+ mcus &* $1.horizontal &* $1.vertical }
    }

    /// The ICC profile of the APP2 segments, assembled in sequence order; `nil` when there is
    /// none, or when the numbering has gaps, repeats or disagrees (as libjpeg-turbo reads it).
    func iccProfile(in bytes: UnsafeRawBufferPointer) -> Data? {
        guard let first = iccSegments.first, first.count > 0, iccSegments.count == Int(first.count) else { return nil }
        let ordered = iccSegments.sorted { $0.sequence < $1.sequence }
        guard ordered.enumerated().allSatisfy({ $0.element.sequence == UInt8($0.offset + 1) && $0.element.count == first.count }) else { return nil }
        var profile = Data()
        for segment in ordered { profile.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[segment.payload])) }
        return profile
    }
}
