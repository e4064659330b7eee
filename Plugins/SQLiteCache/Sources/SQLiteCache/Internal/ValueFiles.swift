import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files that hold values too large to keep inline, in one directory beside the database
/// (YYCache's layout). Each write makes a new file with a fresh random name, which only a
/// committed row ever names: an overwrite never touches the file a reader may be reading, and a
/// write killed half-way leaves an orphan, never a torn value.
struct ValueFiles: Sendable {
    /// The directory of the files.
    let directoryPath: String

    /// The length of a value file name: 32 lowercase hex digits.
    static let nameLength = 32

    /// Whether `name` is a name this type makes (so a damaged database row can never name a
    /// path outside the directory).
    static func isValidName(_ name: String) -> Bool {
        name.utf8.count == nameLength && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A fresh random name.
    static func makeName() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = String(generator.next() as UInt64, radix: 16)
        let low = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - high.count) + high + String(repeating: "0", count: 16 - low.count) + low
    }

    func path(of name: String) -> String {
        directoryPath + "/" + name
    }

    /// Writes `data` to a new file (creating the directory when it is missing).
    /// - Parameter synchronize: Flush the file to the device before returning.
    /// - Returns: The new file's name.
    /// - Throws: ``FileFailure`` naming the call and the path.
    func create(_ data: Data, synchronize: Bool) throws -> String {
        let name = Self.makeName()
        let path = path(of: name)
        var fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0, errno == ENOENT {
            try Self.makeDirectories(directoryPath)
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw FileFailure(call: "open", path: path, code: errno) }
        do {
            try data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw FileFailure(call: "write", path: path, code: errno)
                    }
                    offset += written
                }
            }
            if synchronize, fsync(fd) != 0 { throw FileFailure(call: "fsync", path: path, code: errno) }
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
        close(fd)
        return name
    }

    /// Creates `path` and its missing parents (`mkdir -p`).
    /// - Throws: ``FileFailure`` naming the directory that could not be made and why.
    static func makeDirectories(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw FileFailure(call: "mkdir", path: prefix, code: errno)
            }
        }
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw FileFailure(call: "mkdir", path: path, code: ENOTDIR)
        }
    }

    /// The bytes of file `name`, or `nil` when it is missing, unreadable, or not exactly
    /// `expectedSize` bytes long (truncated by a crash or by someone else).
    func contents(of name: String, expectedSize: Int) -> Data? {
        guard Self.isValidName(name) else { return nil }
        let fd = open(path(of: name), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) == expectedSize else { return nil }
        var data = Data(count: expectedSize)
        let complete = data.withUnsafeMutableBytes { bytes -> Bool in
            var offset = 0
            while offset < expectedSize {
                let count = read(fd, bytes.baseAddress! + offset, expectedSize - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        return complete ? data : nil
    }

    /// Removes file `name` (nothing happens for a missing file or a name this type never makes).
    func remove(_ name: String) {
        guard Self.isValidName(name) else { return }
        unlink(path(of: name))
    }

    /// The files in the directory with their modification times (seconds since 1970), including
    /// files with names this type never makes (so that a sweep can report them).
    func list() -> [(name: String, modificationDate: Double)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directoryPath) else { return [] }
        return names.compactMap { name in
            var info = stat()
            guard lstat(path(of: name), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return (name, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        }
    }
}
