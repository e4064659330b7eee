import Foundation

/// A walk over the top-level boxes of ISO media data, to tell a truncated file (a box claims
/// more bytes than there are) from a corrupt one in error messages.
enum HEIFBoxes {
    /// Whether the last top-level box of `data` ends past its end (or its header is cut).
    static func isTruncated(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            let count = raw.count
            while offset < count {
                guard offset + 8 <= count else { return true }
                var size = UInt64(bigEndian32(raw, offset))
                var header = 8
                if size == 1 {
                    guard offset + 16 <= count else { return true }
                    size = UInt64(bigEndian32(raw, offset + 8)) << 32 | UInt64(bigEndian32(raw, offset + 12))
                    header = 16
                } else if size == 0 {
                    return false  // the box runs to the end of the data
                }
                guard size >= UInt64(header) else { return false }  // corrupt, not truncated
                guard size <= UInt64(count - offset) else { return true }
                offset += Int(size)
            }
            return false
        }
    }

    private static func bigEndian32(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(raw[offset]) << 24 | UInt32(raw[offset + 1]) << 16 | UInt32(raw[offset + 2]) << 8 | UInt32(raw[offset + 3])
    }
}
