#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection to a Redis server: a non-blocking POSIX socket whose every wait is a
/// `poll` bounded by the round trip's deadline, plus the buffer of bytes received and not yet
/// parsed.
///
/// Not thread-safe: a connection belongs to one ``PoolSlot`` and is only used on that slot's
/// serial queue. Any error leaves it unusable: the owner closes it (a late reply would
/// otherwise answer the next command).
final class RedisConnection {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where `recv` writes, before the bytes join `buffer` (allocated once per connection).
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    let endpoint: String

    private init(fd: Int32, endpoint: String) {
        self.fd = fd
        self.endpoint = endpoint
    }

    deinit {
        close()
    }

    /// Connects to `host:port`, trying each address `getaddrinfo` gives until one connects.
    /// - Throws: ``RedisClientError/Kind/connectFailed`` (refused, unreachable, unknown host, or
    ///   `deadline` passed).
    static func connect(host: String, port: Int, deadline: Deadline) throws(RedisClientError) -> RedisConnection {
        let endpoint = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        guard (1...65535).contains(port) else {
            throw RedisClientError(.connectFailed, "cannot connect to \(endpoint): the port is outside 1...65535")
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc) || canImport(Musl)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            let reason = resolved == 0 ? "no address" : String(cString: gai_strerror(resolved))
            throw RedisClientError(.connectFailed, "cannot resolve \(endpoint): \(reason)")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            if deadline.hasPassed {
                lastError = "the connect timeout passed"
                break
            }
            switch attempt(info.pointee, deadline: deadline) {
            case .success(let fd): return RedisConnection(fd: fd, endpoint: endpoint)
            case .failure(let reason): lastError = reason
            }
        }
        throw RedisClientError(.connectFailed, "cannot connect to \(endpoint): \(lastError)")
    }

    private enum Attempt {
        case success(Int32)
        case failure(String)
    }

    /// One non-blocking connect to one address.
    private static func attempt(_ info: addrinfo, deadline: Deadline) -> Attempt {
        #if canImport(Glibc) || canImport(Musl)
        let fd = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
        #else
        let fd = socket(info.ai_family, SOCK_STREAM, info.ai_protocol)
        #endif
        guard fd >= 0 else { return .failure("socket: \(errorText(errno))") }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            let reason = "fcntl: \(errorText(errno))"
            _ = closeDescriptor(fd)
            return .failure(reason)
        }
        var yes: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if connectDescriptor(fd, info.ai_addr, info.ai_addrlen) == 0 { return .success(fd) }
        guard errno == EINPROGRESS || errno == EINTR else {
            let reason = errorText(errno)
            _ = closeDescriptor(fd)
            return .failure(reason)
        }
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, deadline.millisecondsLeft)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 {
                _ = closeDescriptor(fd)
                return .failure(ready == 0 ? "the connect timeout passed" : "poll: \(errorText(errno))")
            }
            break
        }
        var socketError: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length) == 0, socketError == 0 else {
            let reason = errorText(socketError != 0 ? socketError : errno)
            _ = closeDescriptor(fd)
            return .failure(reason)
        }
        return .success(fd)
    }

    /// Whether the connection is closed.
    var isClosed: Bool { fd < 0 }

    /// Closes the socket (idempotent).
    func close() {
        guard fd >= 0 else { return }
        _ = closeDescriptor(fd)
        fd = -1
        buffer = []
        start = 0
    }

    /// Whether an idle connection has gone bad: the server closed it (a restart, an idle
    /// timeout) or sent bytes nobody asked for. Checked without blocking before reuse.
    var isStale: Bool {
        guard fd >= 0 else { return true }
        if start < buffer.count { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }

    /// Sends every byte of `bytes` before `deadline`.
    /// - Throws: ``RedisClientError/Kind/timedOut`` or ``RedisClientError/Kind/connectionClosed``.
    func send(_ bytes: [UInt8], deadline: Deadline, what: String) throws(RedisClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                sendNoSignal(fd, raw.baseAddress! + offset, bytes.count - offset)
            }
            if sent > 0 {
                offset += sent
                continue
            }
            let code = errno
            if sent < 0, code == EINTR { continue }
            guard sent < 0, code == EAGAIN || code == EWOULDBLOCK else {
                throw RedisClientError(.connectionClosed, "\(endpoint) broke the connection while \(what) was sent: \(Self.errorText(code))")
            }
            try wait(for: Int16(POLLOUT), deadline: deadline, what: what)
        }
    }

    /// Reads `count` replies before `deadline`.
    /// - Throws: ``RedisClientError/Kind/timedOut``, ``RedisClientError/Kind/connectionClosed``
    ///   or ``RedisClientError/Kind/protocolViolation``.
    func receive(_ count: Int, parser: RESPParser, deadline: Deadline, what: String) throws(RedisClientError) -> [RedisValue] {
        var replies = [RedisValue]()
        replies.reserveCapacity(count)
        while replies.count < count {
            if let (value, end) = try parser.parse(buffer, from: start) {
                replies.append(value)
                start = end
                continue
            }
            guard buffer.count - start <= parser.maxReplySize + RESPParser.maxLineLength else {
                throw RedisClientError(.protocolViolation, "\(endpoint) sent a reply to \(what) over the reply limit of \(parser.maxReplySize) bytes")
            }
            try fill(deadline: deadline, what: what)
        }
        if start == buffer.count {
            // Keep a small buffer for the next round trip; give a large one back.
            if buffer.capacity > 1 << 20 { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
            start = 0
        }
        return replies
    }

    /// Reads one reply if it arrives before `deadline`; `nil` when none has by then, and the
    /// connection stays usable (the bytes of a reply that has only partly arrived stay in the
    /// buffer). The wait of a subscriber, in slices short enough to notice a shutdown.
    /// - Throws: ``RedisClientError/Kind/connectionClosed`` or
    ///   ``RedisClientError/Kind/protocolViolation``.
    func receiveIfAny(parser: RESPParser, deadline: Deadline, what: String) throws(RedisClientError) -> RedisValue? {
        while true {
            if let (value, end) = try parser.parse(buffer, from: start) {
                start = end
                if start == buffer.count {
                    buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
                    start = 0
                }
                return value
            }
            guard buffer.count - start <= parser.maxReplySize + RESPParser.maxLineLength else {
                throw RedisClientError(.protocolViolation, "\(endpoint) sent a reply to \(what) over the reply limit of \(parser.maxReplySize) bytes")
            }
            do throws(RedisClientError) {
                try fill(deadline: deadline, what: what)
            } catch {
                if error.kind == .timedOut { return nil }
                throw error
            }
        }
    }

    /// Appends the bytes available now (waiting for some, up to `deadline`) to the buffer.
    private func fill(deadline: Deadline, what: String) throws(RedisClientError) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        while true {
            let received = scratch.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress!, raw.count, 0)
            }
            let code = errno
            if received > 0 {
                buffer.append(contentsOf: scratch[0..<received])
                return
            }
            if received == 0 {
                throw RedisClientError(.connectionClosed, "\(endpoint) closed the connection before answering \(what)")
            }
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else {
                throw RedisClientError(.connectionClosed, "\(endpoint) broke the connection before answering \(what): \(Self.errorText(code))")
            }
            try wait(for: Int16(POLLIN), deadline: deadline, what: what)
        }
    }

    /// Waits until the socket is ready for `events`, or throws when `deadline` passes.
    private func wait(for events: Int16, deadline: Deadline, what: String) throws(RedisClientError) {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let left = deadline.millisecondsLeft
            guard left > 0 else { break }
            let ready = poll(&descriptor, 1, left)
            if ready > 0 { return }
            if ready < 0, errno != EINTR {
                throw RedisClientError(.connectionClosed, "poll on the connection to \(endpoint) failed: \(Self.errorText(errno))")
            }
        }
        throw RedisClientError(.timedOut, "\(endpoint) did not answer \(what) within the command timeout")
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

// The system calls whose names the methods above shadow, per platform.

private func closeDescriptor(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #elseif canImport(Musl)
    Musl.close(fd)
    #else
    Darwin.close(fd)
    #endif
}

private func connectDescriptor(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    Glibc.connect(fd, address, length)
    #elseif canImport(Musl)
    Musl.connect(fd, address, length)
    #else
    Darwin.connect(fd, address, length)
    #endif
}

/// `send` that never raises SIGPIPE when the peer is gone (the error comes back as EPIPE).
private func sendNoSignal(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #elseif canImport(Musl)
    Musl.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    Darwin.send(fd, bytes, count, 0)
    #endif
}
