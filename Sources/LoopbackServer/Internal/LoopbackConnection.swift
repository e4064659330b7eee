import Foundation
import Dispatch

/// Serves the requests of one connection of ``LoopbackHTTPServer`` on the calling thread:
/// reads a request head (and a `Content-Length` body), runs the route's steps, and loops while
/// the connection can stay open (HTTP/1.1 keep-alive).
struct LoopbackConnection {
    let socket: LoopbackSocket
    let server: LoopbackHTTPServer

    private enum Outcome {
        case completed(keepAlive: Bool)
        case clientWentAway
        case serverStopping
    }

    /// This thread's CPU time so far, in nanoseconds.
    static func threadCPUNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    func serve() {
        var buffer: [UInt8] = []
        var mark = Self.threadCPUNanoseconds()
        defer { server.addServingCPUTime(nanoseconds: Self.threadCPUNanoseconds() - mark) }
        while !server.shouldStop {
            // Read one request head.
            var headEnd = HTTPRequestHead.endOfHead(in: buffer)
            while headEnd == nil {
                guard buffer.count < HTTPRequestHead.maximumSize else {
                    try? socket.write(Data("HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                    return
                }
                guard let bytes = try? socket.read(), !bytes.isEmpty else { return }
                buffer += bytes
                headEnd = HTTPRequestHead.endOfHead(in: buffer)
            }
            guard let end = headEnd, let head = HTTPRequestHead(buffer[..<end]) else {
                try? socket.write(Data("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                return
            }
            buffer.removeFirst(end)

            // Read the body, if one is declared.
            let bodyLength = head.value(for: "Content-Length").flatMap { Int($0) } ?? 0
            while buffer.count < bodyLength {
                guard let bytes = try? socket.read(), !bytes.isEmpty else { return }
                buffer += bytes
            }
            let body = Data(buffer.prefix(bodyLength))
            buffer.removeFirst(bodyLength)

            let path = Self.path(of: head.target)
            let (request, route) = server.begin(method: head.method, target: head.target, path: path, headers: head.headers, body: body)
            let outcome = run(route.respond(request))
            // Counted per request (the head read included), before the end is recorded: a
            // benchmark reads it once the responses are in, while the connections stay open.
            let now = Self.threadCPUNanoseconds()
            server.addServingCPUTime(nanoseconds: now - mark)
            mark = now
            switch outcome {
            case .completed(let keepAlive):
                server.end(path: path, clientWentAway: false)
                let clientCloses = head.value(for: "Connection")?.lowercased() == "close" || head.version == "HTTP/1.0"
                if !keepAlive || clientCloses { return }
            case .clientWentAway:
                server.end(path: path, clientWentAway: true)
                return
            case .serverStopping:
                server.end(path: path, clientWentAway: false)
                return
            }
        }
    }

    /// The path of a request target (origin form "/a?b" or absolute form "http://h/a?b").
    static func path(of target: String) -> String {
        // On the UTF-8 bytes (Foundation's range(of:) was a visible cost per request).
        var path = Substring(target).utf8[...]
        if !path.starts(with: "/".utf8), let colon = path.firstIndex(of: UInt8(ascii: ":")),
           path[colon...].starts(with: "://".utf8) {
            let rest = path[path.index(colon, offsetBy: 3)...]
            path = rest.firstIndex(of: UInt8(ascii: "/")).map { rest[$0...] } ?? "/".utf8[...]
        }
        if let query = path.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            path = path[..<query]
        }
        return path.isEmpty ? "/" : String(decoding: path, as: UTF8.self)
    }

    private func run(_ steps: [LoopbackHTTPServer.Step]) -> Outcome {
        var framed = false
        do {
            for step in steps {
                switch step {
                case .head(let status, let headers):
                    var text = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
                    for (name, value) in headers { text += "\(name): \(value)\r\n" }
                    text += "\r\n"
                    try socket.write(Data(text.utf8))
                    let names = Set(headers.map { $0.name.lowercased() })
                    framed = names.contains("content-length") || names.contains("transfer-encoding") || status == 304 || status == 204 || status < 200
                case .body(let data):
                    try socket.write(data)
                case .repeatedBytes(let byte, let count):
                    let piece = [UInt8](repeating: byte, count: min(count, 64 * 1024))
                    var left = count
                    while left > 0 {
                        if server.shouldStop { return .serverStopping }
                        try socket.write(piece.prefix(left))
                        left -= min(left, piece.count)
                    }
                case .chunk(let data):
                    guard !data.isEmpty else { continue }
                    try socket.write(Data("\(String(data.count, radix: 16))\r\n".utf8) + data + Data("\r\n".utf8))
                case .endChunks:
                    try socket.write(Data("0\r\n\r\n".utf8))
                case .wait(let gate):
                    // On this thread, not through a task: the cooperative pool may be busy.
                    let semaphore = gate.arriveFromThread()
                    while semaphore.wait(timeout: .now() + .milliseconds(10)) == .timedOut {  // blocking: the connection's own thread
                        if let outcome = interruption() { return outcome }
                    }
                case .pause(let duration):
                    let deadline = ContinuousClock.now + duration
                    while ContinuousClock.now < deadline {
                        if let outcome = interruption() { return outcome }
                        _ = socket.waitReadable(timeoutMilliseconds: 5)
                    }
                case .stall:
                    while true {
                        if let outcome = interruption() { return outcome }
                        _ = socket.waitReadable(timeoutMilliseconds: 10)
                    }
                case .close:
                    return .completed(keepAlive: false)
                }
            }
        } catch {
            return .clientWentAway
        }
        return .completed(keepAlive: framed)
    }

    /// Why a waiting response must end now, if it must.
    private func interruption() -> Outcome? {
        if server.shouldStop { return .serverStopping }
        if socket.peerHasClosed { return .clientWentAway }
        return nil
    }

    static func reason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
