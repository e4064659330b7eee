import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback TCP port that refuses connections for as long as this value lives.
///
/// The port is bound on 127.0.0.1 and never listened on: a connect to it gets `ECONNREFUSED`
/// at once, and no other socket (another test's server in the same parallel run) can bind it
/// meanwhile. "Pick a free port and close it" is racy in a parallel test run: another suite's
/// server may take the port before the test connects, and the test then sees an answer
/// instead of a refusal.
public final class ClosedLoopbackPort: @unchecked Sendable {
    /// The port number (on 127.0.0.1).
    public let port: Int
    private let descriptor: Int32

    /// Binds a fresh port on 127.0.0.1 without listening on it.
    /// - Throws: `POSIXError` when no socket can be made or bound.
    public init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        var actual = sockaddr_in()
        var actualLength = length
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: actual.sin_port))
    }

    deinit {
        close(descriptor)
    }
}
