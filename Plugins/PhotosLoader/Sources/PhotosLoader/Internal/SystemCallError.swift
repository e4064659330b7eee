#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
