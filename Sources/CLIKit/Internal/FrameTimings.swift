import Foundation

/// The frame delays a GIF or APNG file states, read from the file itself.
///
/// Decision: `info` reports durations "as the file states them", while the coders normalize
/// delays of 10 ms or less to 100 ms (browsers' rule) for playback. So `info` walks the file's
/// blocks here: GIF Graphic Control Extensions (hundredths of a second, 0 when an image has
/// none) and APNG `fcTL` chunks (`delay_num / delay_den` seconds, a zero denominator meaning
/// 100). Every read is bounds-checked; a file this walk cannot follow gives `nil` and `info`
/// falls back to the decoded durations.
enum FrameTimings {
    /// The stated delay of each frame in milliseconds, or `nil` when the data is not a GIF or an
    /// APNG (a PNG without `acTL` included) or cannot be walked.
    static func statedDurations(in data: Data) -> [Double]? {
        data.withUnsafeBytes { raw -> [Double]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            if bytes.count >= 6, bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
                return gifDelays(bytes)
            }
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                return apngDelays(bytes)
            }
            return nil
        }
    }

    /// One delay per image descriptor: the delay of the Graphic Control Extension before it.
    static func gifDelays(_ bytes: UnsafeBufferPointer<UInt8>) -> [Double]? {
        let count = bytes.count
        guard count >= 13 else { return nil }
        var position = 13
        if bytes[10] & 0x80 != 0 { position += 3 << (Int(bytes[10] & 0x07) + 1) }
        var pending: Int?
        var delays: [Double] = []
        func skipSubBlocks() -> Bool {
            while position < count {
                let size = Int(bytes[position])
                position += 1
                if size == 0 { return true }
                position += size
            }
            return false
        }
        while position < count {
            switch bytes[position] {
            case 0x21:
                guard position + 1 < count else { return delays.isEmpty ? nil : delays }
                let label = bytes[position + 1]
                position += 2
                if label == 0xF9, position + 3 < count, bytes[position] >= 4 {
                    pending = Int(bytes[position + 2]) | Int(bytes[position + 3]) << 8
                }
                guard skipSubBlocks() else { return delays.isEmpty ? nil : delays }
            case 0x2C:
                guard position + 10 <= count else { return delays.isEmpty ? nil : delays }
                let packed = bytes[position + 9]
                position += 10
                if packed & 0x80 != 0 { position += 3 << (Int(packed & 0x07) + 1) }
                position += 1  // LZW minimum code size
                delays.append(Double(pending ?? 0) * 10)
                pending = nil
                guard skipSubBlocks() else { return delays }
            default:
                // The trailer (0x3B), or bytes that are not a block: the walk ends.
                return delays.isEmpty ? nil : delays
            }
        }
        return delays.isEmpty ? nil : delays
    }

    /// One delay per `fcTL` chunk, when the file has an `acTL` chunk.
    static func apngDelays(_ bytes: UnsafeBufferPointer<UInt8>) -> [Double]? {
        func uint32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        func uint16(_ at: Int) -> Int {
            Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        var position = 8
        var animated = false
        var delays: [Double] = []
        while position + 8 <= bytes.count {
            let length = uint32(position)
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            let start = position + 8
            guard length <= bytes.count - start else { break }
            switch type {
            case "acTL":
                animated = true
            case "fcTL" where length >= 26:
                let numerator = uint16(start + 20)
                let denominator = uint16(start + 22)
                delays.append(Double(numerator) * 1000 / Double(denominator == 0 ? 100 : denominator))
            case "IEND":
                return animated ? delays : nil
            default:
                break
            }
            position = start + length + 4
        }
        return animated && !delays.isEmpty ? delays : nil
    }
}
