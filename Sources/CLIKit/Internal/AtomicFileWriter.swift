import Foundation
import WebImageCore
import WebImageServe
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that it appears whole or not at all: the bytes go to a hidden temporary
/// file in the same directory (`.<name>.webimage-<pid>-<n>.tmp`), which is then renamed over
/// the destination. A failure removes the temporary file, so no partial output is ever left.
/// (A process killed mid-write can leave the hidden temporary file, never a partial output.)
enum AtomicFileWriter {
    private static let counter = Locked<UInt64>(0)

    /// Writes `data` to `url`, replacing any file there.
    /// - Throws: ``CLIError`` (failure) naming the path and the system's reason.
    static func write(_ data: Data, to url: URL) throws(CLIError) {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .failure("cannot write \(path): the directory \(directory) does not exist")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .failure("cannot write \(path): it is a directory")
        }
        let number = counter.withLock { value in
            value += 1
            return value
        }
        let temporary = directory + "/." + url.lastPathComponent + ".webimage-\(getpid())-\(number).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .failure("cannot write \(path): \(SystemCalls.message(errno))")
        }
        var failure = data.withUnsafeBytes { SystemCalls.writeAll(descriptor, $0) }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .failure("cannot write \(path): \(SystemCalls.message(failure))")
        }
    }
}
