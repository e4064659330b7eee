import Foundation
import Testing
import WebImageHTTPServer
import WebImageServer

/// Requests and answers through a real server on 127.0.0.1 (port 0), read with a raw socket.
@Suite struct HTTPServerRequestTests {
    static func makeServer(_ handler: ClosureHandler, configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threadCount = 2
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
