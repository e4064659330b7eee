import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a file, read with `pread` through one window of ``capacity`` bytes, never held
/// whole: random access by index for walks that move forward (or backward) through the file, and
/// ``read(at:into:count:)`` for a decoder that pulls its input.
///
/// The file's size is the size it had when it was opened: a file that grows is read up to that
/// size; a file that shrinks reads as shorter (indices past its end read 0 and
/// ``read(at:into:count:)`` returns 0 there), so that a file changing while it is read gives a
/// truncated or corrupt decode, never a crash. A read error is kept in ``failure`` (the
/// subscript cannot throw) and reads as the end of the file.
///
/// Not thread-safe: one decode on one thread. The file is closed on deinit.
final class FileBytes {
    /// The window's size: 256 KiB.
    static let capacity = 256 * 1024

    let url: URL
    /// The file's size when it was opened.
    let count: Int
    /// The first read error, if any.
    private(set) var failure: WebImageError?
    private let handle: FileHandle
    private let window: UnsafeMutablePointer<UInt8>
    /// The window holds the file's bytes `windowStart ..< windowStart + windowCount`.
    private var windowStart = 0
    private var windowCount = 0

    /// Opens the file at `url`.
    /// - Throws: As ``PieceReader/init(url:)``.
    init(url: URL) throws {
        (handle, count) = try PieceReader.open(url)
        self.url = url
        window = .allocate(capacity: Self.capacity)
    }

    deinit {
        window.deallocate()
        try? handle.close()
    }

    /// The byte at `index` (0 past the file's end, or after a read error).
    subscript(index: Int) -> UInt8 {
        let relative = index &- windowStart
        if relative >= 0, relative < windowCount { return window[relative] }
        guard index >= 0, index < count, failure == nil else { return 0 }
        // Centre a little behind a forward walk's position, or ahead of a backward one's.
        let start = index < windowStart ? max(0, index - Self.capacity + 4096) : max(0, index - 4096)
        windowCount = max(0, read(at: start, into: window, count: min(Self.capacity, count - start)))
        windowStart = start
        let moved = index - start
        return moved < windowCount ? window[moved] : 0
    }

    /// Reads up to `wanted` bytes at file offset `offset` (never past ``count``).
    /// - Returns: The bytes read, 0 at the end, -1 after a read error (kept in ``failure``).
    func read(at offset: Int, into destination: UnsafeMutableRawPointer, count wanted: Int) -> Int {
        guard failure == nil else { return -1 }
        let wanted = min(wanted, count - offset)
        guard wanted > 0 else { return 0 }
        while true {
            let got = pread(handle.fileDescriptor, destination, wanted, off_t(offset))
            if got >= 0 { return got }
            if errno == EINTR { continue }
            let code = errno
            failure = WebImageError(.invalidDownloadResponse, "Cannot read \(url.path): \(String(cString: strerror(code))) (errno \(code))", url: url)
            return -1
        }
    }
}
