public import Foundation

extension LoopbackHTTPServer {
    /// One step of a scripted response.
    public enum Step: Sendable {
        /// The status line and header fields. Add `Content-Length` or
        /// `Transfer-Encoding: chunked` yourself when the connection should stay open after the
        /// response (the factories on ``Route`` do).
        case head(status: Int, headers: [(name: String, value: String)])
        /// Raw body bytes.
        case body(Data)
        /// `count` copies of `byte`, written in 64 KiB pieces (huge bodies without the memory).
        case repeatedBytes(UInt8, count: Int)
        /// One chunk of a chunked body (the framing is added).
        case chunk(Data)
        /// The last chunk of a chunked body.
        case endChunks
        /// Holds the response until `gate` opens (the gate counts an arrival, so a test can
        /// wait for the server to be holding it). Ends early if the client closes the
        /// connection or the server stops.
        case wait(AsyncGate)
        /// Pauses for a while: for demos and benchmarks only (tests use ``wait(_:)``).
        case pause(Duration)
        /// Sends nothing more until the client closes the connection or the server stops
        /// (a stalled server, for timeout tests).
        case stall
        /// Closes the connection now (whatever the headers promised).
        case close
    }

    /// How the server answers a path: a function from the request to the steps of the response.
    public struct Route: Sendable {
        /// Makes the steps for one request (runs on the connection's thread, no lock held).
        public let respond: @Sendable (Request) -> [Step]

        /// A route from a function of the request.
        public init(_ respond: @escaping @Sendable (Request) -> [Step]) {
            self.respond = respond
        }

        /// A fixed script.
        public static func steps(_ steps: [Step]) -> Route {
            Route { _ in steps }
        }

        /// Fixed bytes with a status, a content type and a `Content-Length`.
        public static func data(_ data: Data, contentType: String? = "application/octet-stream", status: Int = 200, headers: [(name: String, value: String)] = []) -> Route {
            .steps([.head(status: status, headers: contentHeaders(contentType: contentType, length: data.count) + headers), .body(data)])
        }

        /// A status with a short text body (404, 500...). For 304 and 204 no body is sent.
        public static func status(_ status: Int, headers: [(name: String, value: String)] = []) -> Route {
            if status == 304 || status == 204 {
                return .steps([.head(status: status, headers: headers)])
            }
            return .data(Data("status \(status)\n".utf8), contentType: "text/plain", status: status, headers: headers)
        }

        /// A redirect to `location` (a path on this server, or a full URL).
        public static func redirect(to location: String, status: Int = 302) -> Route {
            .steps([.head(status: status, headers: [("Location", location), ("Content-Length", "0")])])
        }

        /// The body in chunks of `chunkSize` bytes with `Transfer-Encoding: chunked`.
        public static func chunked(_ data: Data, chunkSize: Int, contentType: String? = "application/octet-stream") -> Route {
            var steps: [Step] = [.head(status: 200, headers: contentHeaders(contentType: contentType, length: nil) + [("Transfer-Encoding", "chunked")])]
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + max(1, chunkSize))
                steps.append(.chunk(data.subdata(in: offset..<end)))
                offset = end
            }
            steps.append(.endChunks)
            return .steps(steps)
        }

        /// A body shorter than its `Content-Length`: `declaredLength` is promised, `data` is sent,
        /// then the connection closes.
        public static func truncated(_ data: Data, declaredLength: Int, contentType: String? = "application/octet-stream") -> Route {
            .steps([.head(status: 200, headers: contentHeaders(contentType: contentType, length: declaredLength)), .body(data), .close])
        }

        /// A body of `byteCount` bytes with its `Content-Length` (or none, `declareLength: false`,
        /// then the end of the body is the closed connection).
        public static func huge(byteCount: Int, declareLength: Bool = true, contentType: String? = "application/octet-stream") -> Route {
            if declareLength {
                return .steps([.head(status: 200, headers: contentHeaders(contentType: contentType, length: byteCount)), .repeatedBytes(0x5A, count: byteCount)])
            }
            return .steps([.head(status: 200, headers: contentHeaders(contentType: contentType, length: nil)), .repeatedBytes(0x5A, count: byteCount), .close])
        }

        /// Holds the whole response (headers included) until `gate` opens, then answers like `route`.
        public static func delayedHeaders(until gate: AsyncGate, then route: Route) -> Route {
            Route { request in [.wait(gate)] + route.respond(request) }
        }

        /// Sends the headers and the first `firstPart` bytes of `data`, holds until `gate` opens,
        /// then sends the rest (a slow body, for progress and progressive tests).
        public static func slowBody(_ data: Data, firstPart: Int, gate: AsyncGate, contentType: String? = "application/octet-stream") -> Route {
            let split = min(max(0, firstPart), data.count)
            return .steps([
                .head(status: 200, headers: contentHeaders(contentType: contentType, length: data.count)),
                .body(data.prefix(split)), .wait(gate), .body(data.dropFirst(split)),
            ])
        }

        /// Sends the headers (and the first `sentBytes` zero bytes of a promised `declaredLength`),
        /// then stalls until the client gives up. With `sendHeaders: false` nothing at all is sent.
        public static func stalled(sendHeaders: Bool = true, sentBytes: Int = 0, declaredLength: Int = 1024) -> Route {
            guard sendHeaders else { return .steps([.stall]) }
            return .steps([
                .head(status: 200, headers: contentHeaders(contentType: "application/octet-stream", length: declaredLength)),
                .repeatedBytes(0, count: min(sentBytes, declaredLength)), .stall,
            ])
        }

        /// The answer for paths with no route.
        static let notFound = Route.status(404)

        static func contentHeaders(contentType: String?, length: Int?) -> [(name: String, value: String)] {
            var headers: [(name: String, value: String)] = []
            if let contentType { headers.append(("Content-Type", contentType)) }
            if let length { headers.append(("Content-Length", String(length))) }
            return headers
        }
    }
}
