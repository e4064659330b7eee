import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file front to back through one buffer of ``capacity`` bytes, allocated once: a
/// decoder that streams takes pieces of it, so that a file of any size costs the buffer, not
/// its size, in memory (and no mapped pages of the file are touched).
///
/// Not thread-safe: one reader serves one decode on one thread. The file is closed on deinit.
final class PieceReader {
    /// The buffer's size: 256 KiB.
    static let capacity = 256 * 1024

    let url: URL
    /// The file's size when it was opened.
    let fileSize: Int
    private let handle: FileHandle
    private let buffer: UnsafeMutableRawPointer
    /// The unread bytes are `buffer[start ..< end]`.
    private var start = 0
    private var end = 0
    /// The file offset of `buffer[start]`.
    private(set) var position = 0
    private var atEnd = false

    /// Opens the file at `url`.
    /// - Throws: ``WebImageError/Code/unsupportedURL`` for a URL that is not a file URL,
    ///   ``WebImageError/Code/invalidURL`` for no such file or a directory,
    ///   ``WebImageError/Code/invalidDownloadResponse`` for a file that cannot be opened.
    init(url: URL) throws {
        (handle, fileSize) = try Self.open(url)
        self.url = url
        buffer = .allocate(byteCount: Self.capacity, alignment: 16)
    }

    /// Opens the file at `url` for reading: its handle and its size now.
    /// - Throws: As ``init(url:)``.
    static func open(_ url: URL) throws -> (handle: FileHandle, size: Int) {
        guard url.isFileURL else {
            throw WebImageError(.unsupportedURL, "Only file URLs can be read a piece at a time, not \(url.absoluteString)", url: url)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw WebImageError(.invalidURL, "No file at \(url.path)", url: url)
        }
        guard !isDirectory.boolValue else {
            throw WebImageError(.invalidURL, "\(url.path) is a directory, not an image file", url: url)
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw WebImageError(.invalidDownloadResponse, "Cannot open \(url.path): \(error.localizedDescription)", underlyingError: error, url: url)
        }
        var status = stat()
        return (handle, fstat(handle.fileDescriptor, &status) == 0 ? Int(status.st_size) : 0)
    }

    deinit {
        buffer.deallocate()
        try? handle.close()
    }

    /// Refills the empty buffer: reads until some bytes arrive or the file ends.
    private func refill() throws {
        start = 0
        end = 0
        while end == 0, !atEnd {
            let got = read(handle.fileDescriptor, buffer, Self.capacity)
            if got < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw WebImageError(.invalidDownloadResponse, "Cannot read \(url.path): \(String(cString: strerror(code))) (errno \(code))", url: url)
            }
            if got == 0 { atEnd = true }
            end = got
        }
    }

    /// The next `count` bytes (fewer where the file ends), copied out.
    func bytes(_ count: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            guard let piece = try piece(max: count - result.count) else { break }
            result.append(contentsOf: piece)
        }
        return result
    }

    /// The next bytes, at most `count` and at least one, valid until the next call; `nil` where
    /// the file ends.
    func piece(max count: Int) throws -> UnsafeRawBufferPointer? {
        guard count > 0 else { return UnsafeRawBufferPointer(start: buffer, count: 0) }
        if start == end { try refill() }
        guard start < end else { return nil }
        let taken = min(count, end - start)
        defer {
            start += taken
            position += taken
        }
        return UnsafeRawBufferPointer(start: buffer + start, count: taken)
    }

    /// Skips `count` bytes (seeking past what is not buffered).
    /// - Returns: `false` if the file ended first.
    func skip(_ count: Int) throws -> Bool {
        let buffered = min(count, end - start)
        start += buffered
        position += buffered
        let rest = count - buffered
        guard rest > 0 else { return true }
        guard position + rest <= fileSize else {
            // Past the end: consume what there is.
            while try piece(max: Self.capacity) != nil {}
            return false
        }
        guard lseek(handle.fileDescriptor, off_t(position + rest), SEEK_SET) >= 0 else {
            let code = errno
            throw WebImageError(.invalidDownloadResponse, "Cannot seek in \(url.path): \(String(cString: strerror(code))) (errno \(code))", url: url)
        }
        position += rest
        start = 0
        end = 0
        return true
    }
}
