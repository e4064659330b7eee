import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells a file's version apart for the incremental rescan: its size and its modification
/// time to the nanosecond (as `stat` reports them).
struct FileStamp: Hashable, Sendable {
    var size: Int64
    var modificationSeconds: Int64
    var modificationNanoseconds: Int64

    /// The modification time as seconds since 1970.
    var modificationInterval: Double {
        Double(modificationSeconds) + Double(modificationNanoseconds) / 1_000_000_000
    }

    init(size: Int64, modificationSeconds: Int64, modificationNanoseconds: Int64) {
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modificationSeconds = Int64(info.st_mtimespec.tv_sec)
        modificationNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        modificationSeconds = Int64(info.st_mtim.tv_sec)
        modificationNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
    }
}

/// A failed system call, with its `errno`.
struct SystemCallError: Error, Sendable, CustomStringConvertible {
    var operation: String
    var path: String
    var code: Int32

    /// Whether the file or a folder on its path does not exist.
    var isNotFound: Bool { code == ENOENT || code == ENOTDIR }

    var description: String {
        "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}

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

/// `lstat` of `path`, or `nil` with the error.
func fileStatus(atPath path: String) -> Result<stat, SystemCallError> {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .failure(SystemCallError(operation: "lstat", path: path, code: errno)) }
    return .success(info)
}

/// What kind of directory entry `info` describes.
enum FileKind {
    case regular, directory, symbolicLink, other

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }
}
