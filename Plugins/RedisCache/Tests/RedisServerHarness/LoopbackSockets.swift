#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Small blocking POSIX socket helpers on 127.0.0.1 for the harness: a free port, a raw PING,
/// listeners. Nothing here ever connects beyond the loopback interface.
public enum LoopbackSockets {
    /// A TCP port on 127.0.0.1 that was free a moment ago: bound to port 0 (the kernel picks),
    /// read back, and released.
    public static func freePort() throws -> Int {
        let (fd, port) = try listen(backlog: 1)
        closeDescriptor(fd)
        return port
    }

    /// Whether a server on `port` answers a RESP `PING` within `timeoutMilliseconds`: with
    /// `+PONG`, or with an error such as `-NOAUTH` when it requires a password (it is up).
    public static func ping(port: Int, timeoutMilliseconds: Int32 = 1000) -> Bool {
        guard let fd = try? connect(port: port) else { return false }
        defer { closeDescriptor(fd) }
        var timeout = timeval()
        timeout.tv_sec = .init(timeoutMilliseconds / 1000)
        timeout.tv_usec = .init(timeoutMilliseconds % 1000 * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("*1\r\n$4\r\nPING\r\n".utf8)
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return false }
        var reply = [UInt8](repeating: 0, count: 64)
        var received = 0
        while received < 64, received < 3 || !reply.prefix(received).contains(10) {
            let count = reply.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, 64 - received, 0) }
            guard count > 0 else { return false }
            received += count
        }
        return reply.starts(with: Array("+PONG\r\n".utf8)) || reply.starts(with: Array("-NOAUTH".utf8))
    }

    /// A listening socket on 127.0.0.1 with an ephemeral port.
    static func listen(backlog: Int32) throws -> (fd: Int32, port: Int) {
        let fd = makeSocket()
        guard fd >= 0 else { throw HarnessError("socket: \(errorText())") }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, systemListen(fd, backlog) == 0 else {
            let error = HarnessError("bind/listen on 127.0.0.1: \(errorText())")
            closeDescriptor(fd)
            throw error
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// A blocking connection to 127.0.0.1:`port`.
    static func connect(port: Int) throws -> Int32 {
        let fd = makeSocket()
        guard fd >= 0 else { throw HarnessError("socket: \(errorText())") }
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = HarnessError("connect to 127.0.0.1:\(port): \(errorText())")
            closeDescriptor(fd)
            throw error
        }
        return fd
    }

    static func closeDescriptor(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #elseif canImport(Musl)
        _ = Musl.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    private static func makeSocket() -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    private static func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.listen(fd, backlog)
        #elseif canImport(Musl)
        Musl.listen(fd, backlog)
        #else
        Darwin.listen(fd, backlog)
        #endif
    }

    private static func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.connect(fd, address, length)
        #elseif canImport(Musl)
        Musl.connect(fd, address, length)
        #else
        Darwin.connect(fd, address, length)
        #endif
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

/// A failure of the test harness itself (not of the code under test).
public struct HarnessError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
