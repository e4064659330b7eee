import Foundation

/// The hash slot of a key in a Redis Cluster, as the Redis Cluster specification defines it:
/// `CRC16(key) mod 16384`, where CRC16 is CRC-16/XMODEM (polynomial 0x1021, initial value 0,
/// no reflection) and only the hash tag is hashed when the key has one.
///
/// The hash tag: the bytes between the first `{` of the key and the first `}` after it, when
/// there is at least one byte between them. `{user1000}.following` and `{user1000}.followers`
/// share a slot; `foo{}{bar}` has no tag (the first braces are empty: the whole key is hashed);
/// `foo{{bar}}zap` hashes `{bar`.
enum RedisHashSlot {
    /// The number of slots of a cluster.
    static let count = 16384

    /// The slot of `key`.
    static func slot(of key: Data) -> Int {
        key.withUnsafeBytes { raw in
            slot(of: UnsafeRawBufferPointer(raw))
        }
    }

    /// The slot of the bytes of `key`.
    static func slot(of key: UnsafeRawBufferPointer) -> Int {
        Int(crc16(hashedPart(of: key))) & (count - 1)
    }

    /// The part of `key` that is hashed: its hash tag, or all of it.
    static func hashedPart(of key: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let open = key.firstIndex(of: UInt8(ascii: "{")),
              let close = key[(open + 1)...].firstIndex(of: UInt8(ascii: "}")),
              close > open + 1 else { return key }
        return UnsafeRawBufferPointer(rebasing: key[(open + 1)..<close])
    }

    /// CRC-16/XMODEM of `bytes` (the check value of `"123456789"` is 0x31C3).
    static func crc16(_ bytes: UnsafeRawBufferPointer) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc = (crc << 8) ^ table[Int((crc >> 8) ^ UInt16(byte))]
        }
        return crc
    }

    /// CRC-16/XMODEM of `bytes`.
    static func crc16(_ bytes: Data) -> UInt16 {
        bytes.withUnsafeBytes { crc16(UnsafeRawBufferPointer($0)) }
    }

    /// The byte-at-a-time table of polynomial 0x1021.
    private static let table: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index) << 8
        for _ in 0..<8 {
            crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }
}
