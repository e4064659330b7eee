import CZlib
import WebImageCore

/// A zlib inflate or deflate stream at a fixed address (zlib keeps a pointer back to its
/// `z_stream` and refuses a moved one), freed on deinit.
///
/// Not thread-safe: one stream serves one decode or encode on one thread.
final class ZlibStream {
    enum Mode { case inflateRaw, deflate(level: Int32, strategy: Int32) }

    let stream: UnsafeMutablePointer<z_stream>
    private let mode: Mode
    private var initialized = false

    /// - Throws: `WebImageError` if zlib cannot initialize (out of memory).
    init(_ mode: Mode) throws {
        self.mode = mode
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let size = Int32(MemoryLayout<z_stream>.size)
        let status: Int32
        switch mode {
        case .inflateRaw:
            // Raw deflate (negative window bits): the caller has checked the 2-byte zlib header,
            // and the Adler-32 trailer is not verified (see PNGCoder's documentation).
            status = inflateInit2_(stream, -15, ZLIB_VERSION, size)
        case .deflate(let level, let strategy):
            status = deflateInit2_(stream, level, Z_DEFLATED, 15, 8, strategy, ZLIB_VERSION, size)
        }
        guard status == Z_OK else {
            // deinit frees the z_stream (initialized stays false, so zlib is not ended).
            throw WebImageError(.badImageData, "zlib could not start (status \(status))")
        }
        initialized = true
    }

    deinit {
        if initialized {
            switch mode {
            case .inflateRaw: inflateEnd(stream)
            case .deflate: deflateEnd(stream)
            }
        }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// The last message zlib set, or `fallback`.
    func message(or fallback: String) -> String {
        guard let text = stream.pointee.msg else { return fallback }
        return String(cString: text)
    }
}
