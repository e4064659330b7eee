import Foundation

/// The largest frame size an AV1 sequence header allows (`max_frame_width_minus_1 + 1`,
/// `max_frame_height_minus_1 + 1`), read from the `av1C` property of an AVIF's primary item.
///
/// libavif 0.11 sizes a decoded image by the container's `ispe` property even when the AV1
/// frame is smaller, allocating planes of the claimed size: a tiny file could cost up to the
/// pixel limit in memory. The coder compares the two before decoding and refuses a claim the
/// bitstream cannot fill. Only single images whose primary item carries an `av1C` with a
/// sequence header are checked (grids and image sequences are left to libavif's own checks).
struct AV1SequenceHeader: Equatable, Sendable {
    var maxWidth: Int
    var maxHeight: Int

    /// The sequence header of the primary item of `data`, or `nil` when it cannot be found (not
    /// an item-based file, a grid, no sequence header in `av1C`, or anything malformed: libavif
    /// then reports what is wrong).
    static func ofPrimaryItem(in data: Data) -> AV1SequenceHeader? {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let meta = Box.find("meta", in: bytes, range: 0..<bytes.count, fullBox: true) else { return nil }
            guard let pitm = Box.find("pitm", in: bytes, range: meta, fullBox: false),
                  let iprp = Box.find("iprp", in: bytes, range: meta, fullBox: false),
                  let ipco = Box.find("ipco", in: bytes, range: iprp, fullBox: false),
                  let ipma = Box.find("ipma", in: bytes, range: iprp, fullBox: false) else { return nil }
            // pitm: version (1 byte), flags (3), item ID (16 bits, 32 with version 1).
            guard pitm.count >= 6 else { return nil }
            let pitmVersion = bytes[pitm.lowerBound]
            guard let primary = pitmVersion == 0 ? Box.read(bytes, pitm.lowerBound + 4, 2) : Box.read(bytes, pitm.lowerBound + 4, 4) else { return nil }
            let properties = Box.children(of: bytes, range: ipco)
            guard let indices = associations(of: Int(primary), in: bytes, ipma: ipma) else { return nil }
            guard let av1C = indices.lazy.filter({ $0 >= 1 && $0 <= properties.count }).map({ properties[$0 - 1] }).first(where: { $0.type == "av1C" }),
                  av1C.body.count >= 4 else { return nil }
            // The configuration OBUs of av1C may hold the sequence header (libavif 0.11 writes
            // none there); else it starts the item's data.
            if let header = parse(obus: bytes, range: av1C.body.lowerBound + 4..<av1C.body.upperBound) { return header }
            guard let iloc = Box.find("iloc", in: bytes, range: meta, fullBox: false),
                  let extent = firstExtent(of: Int(primary), in: bytes, iloc: iloc) else { return nil }
            return parse(obus: bytes, range: extent)
        }
    }

    /// The byte range of the first extent of `item` in the `iloc` box's body, for data stored
    /// in the file itself (construction method 0, data reference 0).
    private static func firstExtent(of item: Int, in bytes: UnsafeBufferPointer<UInt8>, iloc: Range<Int>) -> Range<Int>? {
        guard iloc.count >= 8 else { return nil }
        let version = bytes[iloc.lowerBound]
        guard version <= 2 else { return nil }
        let sizes = bytes[iloc.lowerBound + 4], more = bytes[iloc.lowerBound + 5]
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0x0F)
        let baseOffsetSize = Int(more >> 4), indexSize = version >= 1 ? Int(more & 0x0F) : 0
        var offset = iloc.lowerBound + 6
        func next(_ count: Int) -> Int? {
            guard count == 0 || [1, 2, 4, 8].contains(count) else { return nil }
            guard offset + count <= iloc.upperBound else { return nil }
            let value = count == 0 ? 0 : Box.read(bytes, offset, count)
            offset += count
            return value.flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
        }
        guard let itemCount = next(version < 2 ? 2 : 4) else { return nil }
        for _ in 0..<min(itemCount, 1 << 16) {
            guard let id = next(version < 2 ? 2 : 4) else { return nil }
            var method = 0
            if version >= 1 {
                guard let value = next(2) else { return nil }
                method = value & 0x0F
            }
            guard let reference = next(2), let base = next(baseOffsetSize), let extents = next(2) else { return nil }
            var first: Range<Int>?
            for index in 0..<extents {
                if indexSize > 0 { guard next(indexSize) != nil else { return nil } }
                guard let extentOffset = next(offsetSize), let length = next(lengthSize) else { return nil }
                if index == 0 {
                    let (start, overflow) = base.addingReportingOverflow(extentOffset)
                    guard !overflow, start < bytes.count else { return nil }
                    let end = length == 0 ? bytes.count : min(bytes.count, start + min(length, bytes.count))
                    first = start..<end
                }
            }
            if id == item {
                guard method == 0, reference == 0 else { return nil }
                return first
            }
        }
        return nil
    }

    /// The 1-based property indices associated with `item` in the `ipma` box's body.
    private static func associations(of item: Int, in bytes: UnsafeBufferPointer<UInt8>, ipma: Range<Int>) -> [Int]? {
        guard ipma.count >= 8, let entries = Box.read(bytes, ipma.lowerBound + 4, 4) else { return nil }
        let version = bytes[ipma.lowerBound]
        let wideIndices = bytes[ipma.lowerBound + 3] & 1 != 0
        var offset = ipma.lowerBound + 8
        for _ in 0..<min(Int(entries), 1 << 16) {
            guard let id = Box.read(bytes, offset, version < 1 ? 2 : 4) else { return nil }
            offset += version < 1 ? 2 : 4
            guard offset < ipma.upperBound else { return nil }
            let count = Int(bytes[offset])
            offset += 1
            var indices: [Int] = []
            for _ in 0..<count {
                guard let value = Box.read(bytes, offset, wideIndices ? 2 : 1), offset < ipma.upperBound else { return nil }
                offset += wideIndices ? 2 : 1
                indices.append(Int(value) & (wideIndices ? 0x7FFF : 0x7F))
            }
            if Int(id) == item { return indices }
        }
        return nil
    }

    /// The sequence header among the OBUs in `range` (the configuration OBUs of an `av1C`,
    /// or an item's AV1 data), if it comes before anything else than OBUs it can skip.
    private static func parse(obus bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> AV1SequenceHeader? {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let header = bytes[offset]
            let type = (header >> 3) & 0x0F
            let hasExtension = header & 0x04 != 0
            let hasSize = header & 0x02 != 0
            offset += hasExtension ? 2 : 1
            var size = range.upperBound - offset
            if hasSize {
                var value = 0, shift = 0
                while true {
                    guard offset < range.upperBound, shift < 56 else { return nil }
                    let byte = bytes[offset]
                    offset += 1
                    value |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte & 0x80 == 0 { break }
                }
                size = value
            }
            guard offset <= range.upperBound, size >= 0, size <= range.upperBound - offset else { return nil }
            if type == 1 {  // OBU_SEQUENCE_HEADER
                var reader = BitReader(bytes: bytes, range: offset..<offset + size)
                return parseSequenceHeader(&reader)
            }
            offset += size
        }
        return nil
    }

    /// AV1 specification 5.5.1, up to `max_frame_height_minus_1`.
    private static func parseSequenceHeader(_ r: inout BitReader) -> AV1SequenceHeader? {
        _ = r.bits(3)  // seq_profile
        _ = r.bits(1)  // still_picture
        let reduced = r.bits(1) == 1
        if reduced {
            _ = r.bits(5)  // seq_level_idx[0]
        } else {
            var decoderModelInfo = false
            var bufferDelayLength = 0
            if r.bits(1) == 1 {  // timing_info_present_flag
                _ = r.bits(32)  // num_units_in_display_tick
                _ = r.bits(32)  // time_scale
                if r.bits(1) == 1 {  // equal_picture_interval
                    guard r.skipUVLC() else { return nil }  // num_ticks_per_picture_minus_1
                }
                decoderModelInfo = r.bits(1) == 1
                if decoderModelInfo {
                    bufferDelayLength = r.bits(5) + 1
                    _ = r.bits(32)  // num_units_in_decoding_tick
                    _ = r.bits(5)  // buffer_removal_time_length_minus_1
                    _ = r.bits(5)  // frame_presentation_time_length_minus_1
                }
            }
            let initialDisplayDelay = r.bits(1) == 1
            let operatingPoints = r.bits(5) + 1
            for _ in 0..<operatingPoints {
                _ = r.bits(12)  // operating_point_idc
                if r.bits(5) > 7 { _ = r.bits(1) }  // seq_level_idx, seq_tier
                if decoderModelInfo, r.bits(1) == 1 {
                    _ = r.bits(bufferDelayLength)  // decoder_buffer_delay
                    _ = r.bits(bufferDelayLength)  // encoder_buffer_delay
                    _ = r.bits(1)  // low_delay_mode_flag
                }
                if initialDisplayDelay, r.bits(1) == 1 { _ = r.bits(4) }
            }
        }
        let widthBits = r.bits(4) + 1
        let heightBits = r.bits(4) + 1
        let width = r.bits(widthBits) + 1
        let height = r.bits(heightBits) + 1
        guard !r.overran else { return nil }
        return AV1SequenceHeader(maxWidth: width, maxHeight: height)
    }
}

/// ISO BMFF boxes, just enough to reach the `av1C` of the primary item.
private enum Box {
    struct Child {
        var type: String
        var body: Range<Int>
    }

    /// The big-endian unsigned integer of `count` bytes at `offset`, or `nil` past the end.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> UInt64? {
        guard offset >= 0, count <= 8, offset <= bytes.count - count else { return nil }
        var value: UInt64 = 0
        for index in 0..<count { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    /// The boxes directly inside `range`, in order (stops at the first malformed one).
    static func children(of bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> [Child] {
        var children: [Child] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, children.count < 4096 {
            guard let size32 = read(bytes, offset, 4) else { break }
            let type = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset + 4..<offset + 8]), as: UTF8.self)
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                guard let size64 = read(bytes, offset + 8, 8), size64 <= UInt64(Int.max) else { break }
                size = Int(size64)
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            children.append(Child(type: type, body: offset + header..<offset + size))
            offset += size
        }
        return children
    }

    /// The body of the first box of `type` directly inside `range` (past the 4 bytes of version
    /// and flags when `fullBox`).
    static func find(_ type: String, in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, fullBox: Bool) -> Range<Int>? {
        guard let child = children(of: bytes, range: range).first(where: { $0.type == type }) else { return nil }
        guard fullBox else { return child.body }
        guard child.body.count >= 4 else { return nil }
        return child.body.lowerBound + 4..<child.body.upperBound
    }
}

/// Reads bits, most significant first; past the end it reads zeros and sets ``overran``.
private struct BitReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let range: Range<Int>
    var position = 0
    var overran = false

    init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.range = range
    }

    mutating func bits(_ count: Int) -> Int {
        var value = 0
        for _ in 0..<count {
            let byte = range.lowerBound + position / 8
            guard byte < range.upperBound else {
                overran = true
                return value
            }
            value = value << 1 | Int(bytes[byte] >> (7 - UInt8(position % 8)) & 1)
            position += 1
        }
        return value
    }

    /// Skips an unsigned exponential-Golomb value (`uvlc()`); `false` if malformed.
    mutating func skipUVLC() -> Bool {
        var zeros = 0
        while bits(1) == 0 {
            zeros += 1
            guard zeros < 32, !overran else { return false }
        }
        _ = bits(zeros)
        return !overran
    }
}
