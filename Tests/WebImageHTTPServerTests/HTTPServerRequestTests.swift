import Foundation
import Testing
import WebImageHTTPServer
import WebImageServer
import WebImageTestSupport

/// Requests and answers through a real server on 127.0.0.1 (port 0), read with a raw socket.
@Suite struct HTTPServerRequestTests {
    static func makeServer(_ handler: ClosureHandler, configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threadCount = 2
        // Far above any gap between a test's own steps: in a full `swift test` every suite
        // starts at once on a 2-thread task pool, and a client task that has connected may
        // wait most of a minute for a thread before it sends its request; libmicrohttpd would
        // close that idle connection at the default 30 s. (A request being answered is never
        // timed out: libmicrohttpd takes suspended connections off its timeout lists.) The
        // timeout tests set their own.
        configuration.connectionTimeout = .seconds(600)
        // The same for the deadline of a whole request, which counts from the connect.
        configuration.requestHeadTimeout = .seconds(600)
        configure(&configuration)
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        return server
    }

    @Test func getReturnsTheHandlersStatusHeadersAndBody() async throws {
        let handler = ClosureHandler { _ in
            ServerResponse(status: 200, headers: [("Content-Type", "text/plain"), ("X-Answer", "42")], body: Data("hello".utf8))
        }
        let server = try Self.makeServer(handler)
        #expect(server.port != 0)
        let connection = try await RawHTTPConnection.open(port: server.port)
        let response = try await connection.request("/hello", headers: ["X-Client: test"])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/plain")
        #expect(response.header("X-Answer") == "42")
        #expect(response.header("Content-Length") == "5")
        #expect(response.text == "hello")
        let request = try #require(handler.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/hello")
        #expect(request.query == nil)
        #expect(request.header("x-client") == "test")
        #expect(request.header("Host") == "127.0.0.1")
        #expect(request.remoteAddress == "127.0.0.1")
        await server.shutdown()
    }

    @Test func keepAliveAnswersTwoRequestsOnOneConnection() async throws {
        let handler = ClosureHandler { request in
            ServerResponse(status: 200, body: Data("path \(request.path)".utf8))
        }
        let server = try Self.makeServer(handler)
        let connection = try await RawHTTPConnection.open(port: server.port)
        let first = try await connection.request("/one")
        let second = try await connection.request("/two")
        #expect(first.text == "path /one")
        #expect(second.text == "path /two")
        #expect(first.header("Connection") == nil)
        #expect(handler.requests.map(\.path) == ["/one", "/two"])
        await server.shutdown()
    }

    @Test func notFoundFromTheHandlerReachesTheClient() async throws {
        let handler = ClosureHandler { _ in ServerResponse(status: 404, body: Data("no such image\n".utf8)) }
        let server = try Self.makeServer(handler)
        let connection = try await RawHTTPConnection.open(port: server.port)
        let response = try await connection.request("/missing.jpg")
        #expect(response.status == 404)
        #expect(response.text == "no such image\n")
        // The connection stays usable after an error status.
        let again = try await connection.request("/missing.jpg")
        #expect(again.status == 404)
        await server.shutdown()
    }
}

extension HTTPServerRequestTests {
    @Test func headKeepsContentLengthAndSendsNoBody() async throws {
        let handler = ClosureHandler { _ in
            ServerResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: Data(repeating: 7, count: 1000))
        }
        let server = try Self.makeServer(handler)
        let connection = try await RawHTTPConnection.open(port: server.port)
        let head = try await connection.request("/image.jpg", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "1000")
        #expect(head.header("Content-Type") == "image/jpeg")
        // Had any body byte followed the HEAD answer, this next response would not parse.
        let get = try await connection.request("/image.jpg")
        #expect(get.body == [UInt8](repeating: 7, count: 1000))
        #expect(handler.requests.map(\.method) == ["HEAD", "GET"])
        await server.shutdown()
    }

    @Test(arguments: [
        ("/unsafe/a%2Fb%3Ac.jpg", "/unsafe/a%2Fb%3Ac.jpg", nil),
        ("/sig%3D/300x200/http%3A%2F%2Fexample.com%2Fa.jpg?w=1&x=%2F+%20", "/sig%3D/300x200/http%3A%2F%2Fexample.com%2Fa.jpg", "w=1&x=%2F+%20"),
        ("/a%20b/c?", "/a%20b/c", ""),
        ("/q?a&&b==c&a=2", "/q", "a&&b==c&a=2"),
        ("/%E2%82%AC/%25", "/%E2%82%AC/%25", nil),
    ] as [(String, String, String?)])
    func pathAndQueryReachTheHandlerAsSent(target: String, path: String, query: String?) async throws {
        let handler = ClosureHandler { _ in ServerResponse(status: 204) }
        let server = try Self.makeServer(handler)
        let connection = try await RawHTTPConnection.open(port: server.port)
        let response = try await connection.request(target)
        #expect(response.status == 204)
        let request = try #require(handler.requests.first)
        #expect(request.path == path)
        #expect(request.query == query)
        await server.shutdown()
    }

    @Test func bigBodyArrivesIntact() async throws {
        var bytes = [UInt8](repeating: 0, count: 8 << 20)
        var seed: UInt32 = 0x9E37_79B9
        for index in bytes.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            bytes[index] = UInt8(truncatingIfNeeded: seed >> 24)
        }
        let body = Data(bytes)
        let handler = ClosureHandler { _ in ServerResponse(status: 200, headers: [("Content-Type", "application/octet-stream")], body: body) }
        let server = try Self.makeServer(handler)
        let connection = try await RawHTTPConnection.open(port: server.port)
        let response = try await connection.request("/big")
        #expect(response.header("Content-Length") == String(8 << 20))
        #expect(response.body.count == bytes.count)
        #expect(response.body == bytes)
        await server.shutdown()
    }

    @Test func smallRequestBodiesAreDiscardedAndTheHandlerAnswers() async throws {
        let handler = ClosureHandler { request in
            ServerResponse(status: request.method == "POST" ? 405 : 200, body: Data("method \(request.method)".utf8))
        }
        let server = try Self.makeServer(handler)
        let connection = try await RawHTTPConnection.open(port: server.port)
        let body = String(repeating: "x", count: 5000)
        try await connection.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let response = try await connection.readResponse()
        #expect(response.status == 405)
        #expect(response.text == "method POST")
        // The body was consumed: the connection goes on with the next request.
        let next = try await connection.request("/after")
        #expect(next.text == "method GET")
        await server.shutdown()
    }

    @Test func aDeclaredBodyOverTheLimitIsAnswered413WithoutTheHandler() async throws {
        let handler = ClosureHandler { _ in ServerResponse(status: 200) }
        let server = try Self.makeServer(handler) { $0.requestBodyLimit = 1000 }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50000000\r\n\r\n")
        let response = try await connection.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(handler.requests.isEmpty)
        await server.shutdown()
    }

    @Test func aChunkedBodyOverTheLimitClosesTheConnection() async throws {
        let handler = ClosureHandler { _ in ServerResponse(status: 200) }
        let server = try Self.makeServer(handler) { $0.requestBodyLimit = 1000 }
        let connection = try await RawHTTPConnection.open(port: server.port)
        let chunk = String(repeating: "y", count: 4096)
        try await connection.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n\(chunk)\r\n")
        let rest = try await connection.readToEnd()
        #expect(!String(decoding: rest, as: UTF8.self).contains("200 OK"))
        #expect(handler.requests.isEmpty)
        await server.shutdown()
    }

    @Test func ipv6LoopbackIsServed() async throws {
        let handler = ClosureHandler { request in ServerResponse(status: 200, body: Data((request.remoteAddress ?? "none").utf8)) }
        let server = try Self.makeServer(handler) { $0.host = "::1" }
        let connection = try await RawHTTPConnection.open(port: server.port, host: "::1")
        let response = try await connection.request("/six")
        #expect(response.text == "::1")
        await server.shutdown()
    }

    @Test func theIPv6WildcardAlsoServesIPv4Clients() async throws {
        let handler = ClosureHandler { request in ServerResponse(status: 200, body: Data((request.remoteAddress ?? "none").utf8)) }
        let server = try Self.makeServer(handler) { $0.host = "::" }
        let four = try await RawHTTPConnection.open(port: server.port, host: "127.0.0.1")
        #expect(try await four.request("/four").text == "127.0.0.1")
        let six = try await RawHTTPConnection.open(port: server.port, host: "::1")
        #expect(try await six.request("/six").text == "::1")
        await server.shutdown()
    }

    @Test func aStatusOutsideHTTPsRangeBecomes500AndHeaderInjectionIsDropped() async throws {
        let handler = ClosureHandler { request in
            if request.path == "/bad-status" { return ServerResponse(status: 42, body: Data("x".utf8)) }
            return ServerResponse(status: 200, headers: [("X-Evil", "a\r\nSet-Cookie: stolen=1"), ("X-Fine", "ok")], body: Data("y".utf8))
        }
        let server = try Self.makeServer(handler)
        let connection = try await RawHTTPConnection.open(port: server.port)
        #expect(try await connection.request("/bad-status").status == 500)
        let response = try await connection.request("/injection")
        #expect(response.status == 200)
        #expect(response.header("Set-Cookie") == nil)
        #expect(response.header("X-Evil") == nil)
        #expect(response.header("X-Fine") == "ok")
        await server.shutdown()
    }
}
