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
