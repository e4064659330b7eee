import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed file system call: which call, on which path, and `errno`.
struct FileFailure: Error, CustomStringConvertible {
    let call: String
    let path: String
    let code: Int32

    var description: String { "\(call) \(path): \(String(cString: strerror(code))) (errno \(code))" }

    /// The POSIX error, for ``WebImageError/underlyingError``.
    var posixError: POSIXError? { POSIXErrorCode(rawValue: code).map { POSIXError($0) } }
}
