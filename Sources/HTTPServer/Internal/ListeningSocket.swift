import Foundation
import WebImageCore
import WebImageServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A TCP socket bound and listening for ``HTTPServer``, made here rather than by
/// libmicrohttpd so that a failed bind reports why (`EADDRINUSE`, `EACCES`) and so that the
/// port picked for port 0 can be read back.
struct ListeningSocket: Sendable {
    /// The descriptor (non-blocking, close-on-exec).
    let descriptor: Int32
    /// The bound port.
    let port: Int

    /// Binds `host`:`port` and listens.
    /// - Throws: `WebImageError` (`.invalidArgument`) naming the address and the system's reason.
    static func open(host: String, port: Int, backlog: Int32) throws(WebImageError) -> ListeningSocket {
        guard (0...65535).contains(port) else {
            throw WebImageError(.invalidArgument, "HTTP server port \(port) is not in 0...65535")
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw WebImageError(.invalidArgument, "HTTP server cannot listen on host '\(host)': \(reason)")
        }
        defer { freeaddrinfo(list) }
        let info = first.pointee
        let descriptor = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else {
            throw failure("cannot make a socket for", host: host, port: port, errno: errno)
        }
        var on: Int32 = 1
        var off: Int32 = 0
        let size = socklen_t(MemoryLayout<Int32>.size)
        // SO_REUSEADDR lets a restarted server bind while old connections sit in TIME_WAIT; it
        // does not let two servers listen on one port (that would take SO_REUSEPORT).
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, size)
        if info.ai_family == AF_INET6 {
            // `::` serves IPv4 clients too, whatever the system's default.
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, size)
        }
        guard bind(descriptor, info.ai_addr, info.ai_addrlen) == 0 else {
            let code = errno
            close(descriptor)
            throw failure("cannot bind", host: host, port: port, errno: code)
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw failure("cannot listen on", host: host, port: port, errno: code)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(descriptor)
            throw failure("cannot read the port of", host: host, port: port, errno: code)
        }
        let family = Int32(storage.ss_family)
        let boundPort: Int = withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        }
        return ListeningSocket(descriptor: descriptor, port: boundPort)
    }

    private static func failure(_ what: String, host: String, port: Int, errno code: Int32) -> WebImageError {
        let posix = POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        var message = "HTTP server \(what) \(host) port \(port): \(String(cString: strerror(code)))"
        if code == EADDRINUSE { message += " (another process is listening on that port)" }
        return WebImageError(.invalidArgument, message, underlyingError: posix)
    }
}
