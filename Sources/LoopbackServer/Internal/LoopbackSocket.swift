#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A thin owner of one POSIX socket descriptor for ``LoopbackHTTPServer``: listening on
/// 127.0.0.1 only, accepting, reading, writing and polling, with errors as `POSIXError`s.
///
/// Thread-safety: `fd` is immutable; the kernel serialises concurrent calls on one descriptor.
/// `shutdown()` may be called from another thread to wake a blocked `read`/`accept`; `close()`
/// is called exactly once by the owning thread (guarded by `closed`).
final class LoopbackSocket: Sendable {
    let fd: Int32

    init(fd: Int32) {
        self.fd = fd
    }

    /// A listening socket bound to 127.0.0.1 on an ephemeral port (never any other address).
    static func listenOnLoopback(backlog: Int32 = 128) throws -> (socket: LoopbackSocket, port: Int) {
        #if canImport(Glibc) || canImport(Musl)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw posixError("socket") }
        let socket = LoopbackSocket(fd: fd)
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0  // ephemeral
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = posixError("bind 127.0.0.1")
            socket.close()
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let error = posixError("listen")
            socket.close()
            throw error
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let error = posixError("getsockname")
            socket.close()
            throw error
        }
        return (socket, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// Waits up to `timeoutMilliseconds` for the socket to become readable (or hung up).
    /// Returns `true` when readable or closed, `false` on timeout.
    func waitReadable(timeoutMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let result = poll(&descriptor, 1, timeoutMilliseconds)
        return result > 0
    }

    /// Accepts one connection, or `nil` when none is pending (after a poll timeout) or on error.
    func accept(timeoutMilliseconds: Int32) -> LoopbackSocket? {
        guard waitReadable(timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        #if canImport(Glibc) || canImport(Musl)
        let client = Glibc.accept(fd, nil, nil)
        #else
        let client = Darwin.accept(fd, nil, nil)
        #endif
        guard client >= 0 else { return nil }
        var yes: Int32 = 1
        _ = setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        return LoopbackSocket(fd: client)
    }

    /// Reads up to `capacity` bytes; an empty result means the peer closed the connection.
    func read(capacity: Int = 64 * 1024) throws -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            while true {
                let count = recv(fd, buffer.baseAddress, capacity, 0)
                if count >= 0 {
                    initialized = count
                    return
                }
                if errno == EINTR { continue }
                failure = errno
                initialized = 0
                return
            }
        }
        if failure != 0 {
            errno = failure
            throw Self.posixError("recv")
        }
        return bytes
    }

    /// Writes every byte of `bytes` (blocking), or throws when the peer is gone. Sends from the
    /// bytes' own storage, region by region, without copying them first (a benchmark's server
    /// should not spend its time copying each 1 MB body).
    func write<Bytes: DataProtocol>(_ bytes: Bytes) throws {
        for region in bytes.regions {
            try region.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var offset = 0
                while offset < raw.count {
                    let count = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw Self.posixError("send")
                    }
                    offset += count
                }
            }
        }
    }

    /// Whether the peer has closed its side (or the connection broke), checked without blocking
    /// and without consuming any byte it may have sent.
    var peerHasClosed: Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        if descriptor.revents & Int16(POLLERR | POLLHUP) != 0 { return true }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Shuts both directions down: wakes any thread blocked on this socket.
    func shutdown() {
        #if canImport(Glibc) || canImport(Musl)
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
        #else
        _ = Darwin.shutdown(fd, SHUT_RDWR)
        #endif
    }

    /// Closes the descriptor. Call once, from the owning thread.
    func close() {
        #if canImport(Glibc) || canImport(Musl)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// The `POSIXError` for the current `errno` (`call` names the failed call, for debugging).
    static func posixError(_ call: String) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
