/// Random access to bytes for the header parsers: a file (through ``FileReader``, with its head
/// kept in memory) or an array (an embedded thumbnail).
protocol ByteSource {
    /// The total number of bytes.
    var count: Int { get }
    /// Up to `count` bytes at `offset` (fewer at the end).
    func bytes(at offset: Int, count: Int) throws -> [UInt8]
}

/// Bytes in memory.
struct MemoryBytes: ByteSource {
    let storage: [UInt8]

    var count: Int { storage.count }

    func bytes(at offset: Int, count: Int) throws -> [UInt8] {
        guard offset >= 0, offset < storage.count, count > 0 else { return [] }
        return Array(storage[offset..<min(storage.count, offset + count)])
    }
}

/// A file whose first bytes are already in memory: reads inside the head cost no system call.
struct HeadedFile: ByteSource {
    let reader: FileReader
    let head: [UInt8]
    let count: Int

    func bytes(at offset: Int, count: Int) throws -> [UInt8] {
        guard offset >= 0, offset < self.count, count > 0 else { return [] }
        let end = min(self.count, offset + count)
        if end <= head.count { return Array(head[offset..<end]) }
        return try reader.read(at: offset, count: end - offset)
    }
}

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
