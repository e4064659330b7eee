import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened for reading with `pread`: random access without moving a shared offset, so
/// the header parsers can jump from segment to segment and read only what they need.
///
/// Not thread-safe: one owner, one call at a time (each scan or load opens its own).
final class FileReader {
    let path: String
    private let descriptor: Int32
    /// Bytes read so far through this reader.
    private(set) var bytesRead = 0

    /// Opens `path` read-only.
    /// - Throws: ``SystemCallError`` (`open`).
    init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallError(operation: "open", path: path, code: errno) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The open file's size and modification time.
    func stamp() throws -> FileStamp {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemCallError(operation: "fstat", path: path, code: errno) }
        return FileStamp(info)
    }

    /// Up to `count` bytes at `offset` as `Data` (read straight into it, no copy): fewer only
    /// at the end of the file.
    func readData(at offset: Int, count: Int) throws -> Data {
        guard count > 0, offset >= 0 else { return Data() }
        var result = Data(count: count)
        var done = 0
        while done < count {
            let got = result.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(operation: "read", path: path, code: errno)
            }
            if got == 0 { break }
            done += got
        }
        bytesRead += done
        if done < count { result.count = done }
        return result
    }

    /// Up to `count` bytes at `offset`: fewer only at the end of the file.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var result = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = result.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(operation: "read", path: path, code: errno)
            }
            if got == 0 { break }
            done += got
        }
        bytesRead += done
        if done < count { result.removeSubrange(done...) }
        return result
    }
}
