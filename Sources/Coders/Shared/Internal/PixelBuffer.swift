/// Pixel storage helpers shared by the decoders.
enum PixelBuffer {
    /// A byte array of `count` bytes whose contents `initialize` writes in full. Skips the
    /// zero-fill of `Array(repeating:count:)`, which costs real time on large images.
    /// - Precondition: `initialize` writes every byte.
    static func make(count: Int, _ initialize: (UnsafeMutableBufferPointer<UInt8>) throws -> Void) rethrows -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try initialize(buffer)
            initialized = count
        }
    }

    /// A zero-filled (transparent black) byte array.
    static func zeroed(count: Int) -> [UInt8] {
        [UInt8](repeating: 0, count: count)
    }
}
