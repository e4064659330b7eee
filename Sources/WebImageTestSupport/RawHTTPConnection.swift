import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A blocking TCP client connection that writes requests verbatim (so that escapes reach the
/// server as written) and reads responses with a `Content-Length`. Blocking calls run on a
/// thread of their own (``perform(_:)``): not on the cooperative pool, which the server's
/// handler tasks need, and not on Dispatch's global queues, whose Linux thread pool grows by
/// about one thread a second when its threads block (fifty blocked clients would stall every
/// other test for most of a minute). A receive timeout turns a hang into a failure.
public final class RawHTTPConnection: @unchecked Sendable {
    // @unchecked Sendable: used by one test at a time, one call at a time.
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    private var isClosed = false

    deinit {
        if !isClosed { Glibc.close(descriptor) }
    }

    /// Closes the socket now: the client hangs up (else it closes when released). Later calls
    /// do nothing; nothing else may be called after it.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }

    /// Connects to `host` (an IPv4 or IPv6 literal) on `port`.
    public static func open(port: Int, host: String = "127.0.0.1") async throws -> RawHTTPConnection {
        try await perform { try connectNow(port: port, host: host) }
    }

    /// Connects and sends `text` in one step on one thread, so that no wait for the task pool
    /// comes between them (for tests with a short idle timeout).
    public static func open(port: Int, host: String = "127.0.0.1", sending text: String) async throws -> RawHTTPConnection {
        let bytes = Array(text.utf8)
        return try await perform {
            let connection = try connectNow(port: port, host: host)
            try connection.sendNow(bytes)
            return connection
        }
    }

    /// Runs a blocking `body` on a new thread.
    public static func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.start()
        }
    }

    /// The `errno` of a connect attempt to `host`:`port` (0 when it connected).
    public static func connectError(port: Int, host: String = "127.0.0.1") async -> Int32 {
        (try? await perform { () -> Int32 in
            do {
                _ = try connectNow(port: port, host: host)
                return 0
            } catch let error as POSIXError {
                return error.code.rawValue
            }
        }) ?? -1
    }

    /// Connects and sends `head` one byte at a time, then more header bytes (`a`) forever, one
    /// every `interval` (a client that trickles a request it never finishes), until the server
    /// closes the connection or `limit` has passed.
    /// - Returns: How long after the client started connecting it saw the connection closed
    ///   (end of stream, reset or a failed send), by the test's own clock; `nil` when it was
    ///   still open after `limit`.
    public static func trickle(port: Int, head: String, every interval: Duration, giveUpAfter limit: Duration) async throws -> Duration? {
        let bytes = Array(head.utf8)
        let pause = Int32(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        return try await perform { () -> Duration? in
            let clock = ContinuousClock()
            let start = clock.now
            let connection = try connectNow(port: port, host: "127.0.0.1")
            var sent = 0
            while clock.now - start < limit {
                var byte = sent < bytes.count ? bytes[sent] : UInt8(ascii: "a")
                if Glibc.send(connection.descriptor, &byte, 1, Int32(MSG_NOSIGNAL)) != 1 { return clock.now - start }
                sent += 1
                var poll = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
                if Glibc.poll(&poll, 1, pause) > 0 {
                    // Readable: the end of the stream or a reset (the server sends no answer to
                    // a request it never got whole).
                    var chunk = [UInt8](repeating: 0, count: 512)
                    if chunk.withUnsafeMutableBytes({ recv(connection.descriptor, $0.baseAddress, $0.count, 0) }) <= 0 {
                        return clock.now - start
                    }
                }
            }
            return nil
        }
    }

    private static func connectNow(port: Int, host: String) throws -> RawHTTPConnection {
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Long enough for a starved task pool (see HTTPServerRequestTests.makeServer).
        var timeout = timeval(tv_sec: 300, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return RawHTTPConnection(descriptor: descriptor)
    }

    /// Sends `text` as is.
    public func send(_ text: String) async throws {
        let bytes = Array(text.utf8)
        try await Self.perform { try self.sendNow(bytes) }
    }

    /// Sends a request and reads its response (`GET` by default, with a `Host` header).
    public func request(_ target: String, method: String = "GET", headers: [String] = []) async throws -> RawHTTPResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { text += header + "\r\n" }
        text += "\r\n"
        let bytes = Array(text.utf8)
        let isHead = method == "HEAD"
        return try await Self.perform {
            try self.sendNow(bytes)
            return try self.readResponseNow(isHead: isHead)
        }
    }

    /// Reads one response.
    public func readResponse(isHead: Bool = false) async throws -> RawHTTPResponse {
        try await Self.perform { try self.readResponseNow(isHead: isHead) }
    }

    /// Reads until the server closes the connection; returns what arrived.
    public func readToEnd() async throws -> [UInt8] {
        try await Self.perform {
            while try self.fill() {}
            defer { self.buffer.removeAll() }
            return self.buffer
        }
    }

    private func sendNow(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            offset += sent
        }
    }

    /// Reads more bytes into the buffer; `false` at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private func readResponseNow(isHead: Bool) throws -> RawHTTPResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if buffer.count >= 4 {
                headEnd = (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual(separator) }
            }
            if headEnd == nil {
                guard try fill() else { throw RawHTTPError("connection closed before a response head (\(buffer.count) bytes)") }
            }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw RawHTTPError("bad status line in \(head)") }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawHTTPResponse(status: status, headers: headers, body: [])
        if isHead || status == 304 || status == 204 || (100..<200).contains(status) { return response }
        guard let length = response.header("Content-Length").flatMap(Int.init) else {
            throw RawHTTPError("response without Content-Length: \(head)")
        }
        while buffer.count < length {
            guard try fill() else { throw RawHTTPError("connection closed after \(buffer.count) of \(length) body bytes") }
        }
        response.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return response
    }
}
