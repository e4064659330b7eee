import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which call, on which path, and `errno`.
struct SystemCallError: Error, Sendable, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32

    init(_ operation: String, _ path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The `errno` as Foundation's `POSIXError`, for ``WebImageError/underlyingError``.
    var posixError: POSIXError? {
        POSIXErrorCode(rawValue: code).map { POSIXError($0) }
    }

    var description: String {
        "\(operation)(\(path)) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// One item of a directory listing.
struct DirectoryItem: Sendable {
    let name: String
    let isRegularFile: Bool
    let size: Int
    let accessDate: Double
    let modificationDate: Double
    let changeDate: Double
    /// The birth time where the file system reports it (asked for only when needed).
    let creationDate: Double?
}

/// Thin, allocation-conscious wrappers over POSIX file calls: the disk cache's hot path uses
/// these instead of `FileManager` (one `open`, one `fstat`, one `read` per hit). Stateless;
/// safe from any thread.
enum FileIO {
    /// `UTIME_NOW` and `UTIME_OMIT` from `<sys/stat.h>` (macros Swift does not import).
    private static let utimeNow = (1 << 30) - 1
    private static let utimeOmit = (1 << 30) - 2

    private static let fileTypeMask: UInt32 = 0o170000
    private static let regularFileType: UInt32 = 0o100000
    private static let directoryType: UInt32 = 0o040000

    /// `open` that retries on `EINTR`. Returns the descriptor or -1 with `errno` set.
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        while true {
            let fd = path.withCString { systemOpen($0, flags | O_CLOEXEC, mode) }
            if fd >= 0 || errno != EINTR { return fd }
        }
    }

    private static func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    /// Closes `fd`, ignoring errors (a read-only descriptor has nothing to flush).
    static func close(_ fd: Int32) {
        #if canImport(Glibc) || canImport(Musl)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// Whether the `stat` says regular file.
    static func isRegularFile(_ info: stat) -> Bool {
        UInt32(info.st_mode) & fileTypeMask == regularFileType
    }

    /// Whether the `stat` says directory.
    static func isDirectory(_ info: stat) -> Bool {
        UInt32(info.st_mode) & fileTypeMask == directoryType
    }

    /// The whole content of the open regular file `fd`, or `nil` if it is not a regular file or
    /// cannot be read. `size` is the size from `fstat`; a file that turns out shorter yields
    /// what was read.
    static func readAll(_ fd: Int32, size: Int) -> Data? {
        guard size > 0 else { return Data() }
        guard let buffer = malloc(size) else { return nil }
        var offset = 0
        while offset < size {
            let count = read(fd, buffer + offset, size - offset)
            if count > 0 {
                offset += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                free(buffer)
                return nil
            }
        }
        return Data(bytesNoCopy: buffer, count: offset, deallocator: .free)
    }

    /// Reads the regular file at `path`.
    /// - Returns: The descriptor's `stat` and data, or `nil` when the file does not exist, is
    ///   not a regular file, or cannot be read. The descriptor stays open for `body`, which
    ///   runs only on success and may use it (to read an extended attribute of the same file).
    static func withOpenedFile<Result>(_ path: String, _ body: (Int32, stat) -> Result?) -> Result? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, isRegularFile(info) else { return nil }
        return body(fd, info)
    }

    /// Whether `path` names the file `info` describes (same device and inode): `false` when
    /// the file there was replaced or removed since `info` was taken.
    static func isFile(at path: String, sameAs info: stat) -> Bool {
        var current = stat()
        return stat(path, &current) == 0 && current.st_dev == info.st_dev && current.st_ino == info.st_ino
    }

    /// Sets the access time of `fd` to now, leaving the modification time alone (so that
    /// expiry by access date works even on file systems mounted `noatime` or `relatime`).
    /// Failure is ignored: the file may be in a read-only directory.
    static func touchAccessTime(_ fd: Int32) {
        var times = [timespec(tv_sec: 0, tv_nsec: utimeNow), timespec(tv_sec: 0, tv_nsec: utimeOmit)]
        _ = futimens(fd, &times)
    }

    /// Writes every byte of `data` to `fd`.
    static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(SystemCallError) {
        let failure: Int32? = data.withUnsafeBytes { bytes -> Int32? in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let count = write(fd, base + offset, bytes.count - offset)
                if count > 0 {
                    offset += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return count == 0 ? EIO : errno
                }
            }
            return nil
        }
        if let failure { throw SystemCallError("write", path, code: failure) }
    }

    /// Creates `path` and its missing parents (`mkdir -p`), mode 0755.
    static func makeDirectories(_ path: String) throws(SystemCallError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard isDirectory(info) else { throw SystemCallError("mkdir", path, code: ENOTDIR) }
            return
        }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if mkdir(current, 0o755) != 0 {
                let code = errno
                guard code == EEXIST, stat(current, &info) == 0, isDirectory(info) else {
                    throw SystemCallError("mkdir", current, code: code == EEXIST ? ENOTDIR : code)
                }
            }
        }
    }

    /// Removes the file at `path`; a missing file is not an error.
    @discardableResult
    static func removeFile(_ path: String) -> Bool {
        unlink(path) == 0 || errno == ENOENT
    }

    /// Lists the directory at `path`: every name except `.` and `..`, with `lstat` facts
    /// (symbolic links are not followed). `nil` when the directory cannot be opened.
    /// - Parameter creationDates: Ask the file system for birth times (one extra call per file).
    static func listDirectory(_ path: String, creationDates: Bool) -> [DirectoryItem]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        let directoryFD = dirfd(directory)
        var items: [DirectoryItem] = []
        while let entry = readdir(directory) {
            let item: DirectoryItem? = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { name -> DirectoryItem? in
                    if name[0] == 0x2E, name[1] == 0 || (name[1] == 0x2E && name[2] == 0) { return nil }
                    var info = stat()
                    guard fstatat(directoryFD, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
                    let times = fileTimes(info)
                    return DirectoryItem(
                        name: String(cString: name),
                        isRegularFile: isRegularFile(info),
                        size: Int(info.st_size),
                        accessDate: times.access,
                        modificationDate: times.modification,
                        changeDate: times.change,
                        creationDate: creationDates ? SystemCalls.shared.birthTime(of: name, in: directoryFD) : nil
                    )
                }
            }
            if let item { items.append(item) }
        }
        return items
    }

    /// The access, modification and status-change times of a `stat`, in seconds since 1970.
    static func fileTimes(_ info: stat) -> (access: Double, modification: Double, change: Double) {
        #if canImport(Darwin)
        return (seconds(info.st_atimespec), seconds(info.st_mtimespec), seconds(info.st_ctimespec))
        #else
        return (seconds(info.st_atim), seconds(info.st_mtim), seconds(info.st_ctim))
        #endif
    }

    private static func seconds(_ time: timespec) -> Double {
        Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The current time, in seconds since 1970.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return seconds(time)
    }
}
