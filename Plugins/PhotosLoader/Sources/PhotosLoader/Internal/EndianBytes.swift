/// Big- or little-endian integers from a byte array, every read bounds-checked (`nil` outside).
struct EndianBytes {
    let bytes: [UInt8]
    let littleEndian: Bool

    func u8(_ offset: Int) -> Int? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return Int(bytes[offset])
    }

    func u16(_ offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let first = Int(bytes[offset]), second = Int(bytes[offset + 1])
        return littleEndian ? first | second << 8 : first << 8 | second
    }

    func u32(_ offset: Int) -> Int? {
        guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
        return littleEndian ? first | second << 16 : first << 16 | second
    }
}
