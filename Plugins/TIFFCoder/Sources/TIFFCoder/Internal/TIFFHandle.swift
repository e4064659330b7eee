import CTIFF
import Foundation
import WebImageCore

/// One TIFF opened by libtiff over bytes in memory (`TIFFClientOpenExt`, never a file), with
/// its errors and warnings recorded instead of printed (see CTIFF/shim.h).
///
/// Used inside ``read(_:maxAllocation:_:)`` only: the bytes, the stream and the messages live for
/// the closure's duration, on the calling thread. Not `Sendable`, never stored.
final class TIFFHandle {
    /// libtiff's handle.
    let tif: OpaquePointer
    /// The size of the data read (0 when writing), for error messages.
    let byteCount: Int
    /// Where the handlers record libtiff's messages.
    private let messages: UnsafeMutablePointer<wi_tiff_messages>

    private init(tif: OpaquePointer, byteCount: Int, messages: UnsafeMutablePointer<wi_tiff_messages>) {
        self.tif = tif
        self.byteCount = byteCount
        self.messages = messages
    }

    /// The latest error libtiff reported, if any.
    var lastError: String? {
        guard messages.pointee.error_count > 0 else { return nil }
        return withUnsafeBytes(of: messages.pointee.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// A `badImageData` error for a failed step, with libtiff's own message when it gave one.
    func failure(_ what: String) -> WebImageError {
        let detail = lastError.map { ": \($0)" } ?? ""
        return WebImageError(.badImageData, "TIFF data of \(byteCount) bytes: \(what) failed\(detail)")
    }

    /// Opens `data` and runs `body` with the handle; libtiff's messages on this thread are
    /// recorded for the handle meanwhile.
    /// - Parameter maxAllocation: the largest single allocation libtiff may make (0: its default).
    static func read<T>(_ data: Data, maxAllocation: Int, _ body: (TIFFHandle) throws -> T) throws -> T {
        guard data.count >= 8 else {
            throw WebImageError(.badImageData, "TIFF data of \(data.count) bytes is too short for a header")
        }
        return try data.withUnsafeBytes { raw in
            let messages = UnsafeMutablePointer<wi_tiff_messages>.allocate(capacity: 1)
            messages.initialize(to: wi_tiff_messages())
            let stream = UnsafeMutablePointer<wi_tiff_stream>.allocate(capacity: 1)
            stream.initialize(to: wi_tiff_stream(base: UnsafeMutablePointer(mutating: raw.baseAddress!.assumingMemoryBound(to: UInt8.self)),
                                                 size: UInt64(raw.count), capacity: UInt64(raw.count), position: 0, writable: 0, failed: 0))
            wi_tiff_capture_thread_messages(messages)
            defer {
                wi_tiff_capture_thread_messages(nil)
                stream.deallocate()
                messages.deallocate()
            }
            guard let tif = wi_tiff_open(stream, "r", messages, tmsize_t(maxAllocation)) else {
                let message = messages.pointee.error_count > 0 ? withUnsafeBytes(of: messages.pointee.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } : "not a readable TIFF"
                throw WebImageError(.badImageData, "TIFF data of \(data.count) bytes cannot be opened: \(message)")
            }
            defer { TIFFClose(tif) }
            return try body(TIFFHandle(tif: tif, byteCount: data.count, messages: messages))
        }
    }

    /// Writes a TIFF into memory with `body`, then returns the bytes.
    static func write(_ body: (TIFFHandle) throws -> Void) throws -> Data {
        let messages = UnsafeMutablePointer<wi_tiff_messages>.allocate(capacity: 1)
        messages.initialize(to: wi_tiff_messages())
        let stream = UnsafeMutablePointer<wi_tiff_stream>.allocate(capacity: 1)
        stream.initialize(to: wi_tiff_stream(base: nil, size: 0, capacity: 0, position: 0, writable: 1, failed: 0))
        wi_tiff_capture_thread_messages(messages)
        defer {
            wi_tiff_capture_thread_messages(nil)
            free(stream.pointee.base)
            stream.deallocate()
            messages.deallocate()
        }
        guard let tif = wi_tiff_open(stream, "w", messages, 0) else {
            throw WebImageError(.encodingFailed, "libtiff cannot start a TIFF in memory")
        }
        let handle = TIFFHandle(tif: tif, byteCount: 0, messages: messages)
        do {
            try body(handle)
        } catch {
            TIFFClose(tif)
            throw error
        }
        TIFFClose(tif)
        if stream.pointee.failed != 0 || messages.pointee.error_count > 0 {
            throw WebImageError(.encodingFailed, "libtiff failed to write the TIFF: \(handle.lastError ?? "out of memory")")
        }
        guard let base = stream.pointee.base else { throw WebImageError(.encodingFailed, "libtiff wrote no TIFF data") }
        return Data(bytes: base, count: Int(stream.pointee.size))
    }

    // MARK: Tags

    /// A SHORT tag of the current directory (with libtiff's default when `defaulted`), or `nil`.
    func u16(_ tag: Int32, defaulted: Bool = true) -> UInt16? {
        var value: UInt16 = 0
        let found = defaulted ? wi_tiff_get_u16_defaulted(tif, UInt32(tag), &value) : wi_tiff_get_u16(tif, UInt32(tag), &value)
        return found != 0 ? value : nil
    }

    /// A LONG tag of the current directory (with libtiff's default when `defaulted`), or `nil`.
    func u32(_ tag: Int32, defaulted: Bool = true) -> UInt32? {
        var value: UInt32 = 0
        let found = defaulted ? wi_tiff_get_u32_defaulted(tif, UInt32(tag), &value) : wi_tiff_get_u32(tif, UInt32(tag), &value)
        return found != 0 ? value : nil
    }
}
