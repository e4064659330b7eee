import Foundation
import Testing
import WebImageCore
@testable import WebImageHTTPServer
import WebImageServer
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What one client can cost the server (issue 33): connections per client address, the
/// deadline of a request, and `X-Content-Type-Options` on every answer.
@Suite struct HTTPServerAbuseLimitTests {
    @Test func defaultsBoundAClientBehindNoProxy() {
        let configuration = HTTPServerConfiguration()
        #expect(configuration.connectionsPerClientLimit == 64)
        #expect(configuration.requestHeadTimeout == .seconds(10))
    }

    @Test func aClientOverItsConnectionLimitIsClosedUntilOneOfItsConnectionsCloses() async throws {
        let handler = ClosureHandler { request in ServerResponse(status: 200, body: Data(request.path.utf8)) }
        // One thread: it releases a closed connection's slot before it accepts the next one
        // (see `waitUntilOpenConnections(atMost:)`).
        let server = try HTTPServerRequestTests.makeServer(handler) {
            $0.threadCount = 1
            $0.connectionsPerClientLimit = 2
        }
        // Two connections from 127.0.0.1, each answered (so the server holds both).
        var first: RawHTTPConnection? = try await RawHTTPConnection.open(port: server.port)
        #expect(try await first?.request("/1").text == "/1")
        let second = try await RawHTTPConnection.open(port: server.port)
        #expect(try await second.request("/2").text == "/2")
        #expect(server.openConnectionCount == 2)

        // A third: the kernel completes the handshake, the server closes it without an answer.
        let third = try await RawHTTPConnection.open(port: server.port)
        try? await third.send("GET /3 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // The end of the stream, or a reset (the server closed it with the request unread).
        await #expect(throws: (any Error).self) { try await third.readResponse() }
        #expect(server.openConnectionCount == 2)

        // One closes: the next connection is taken and answered.
        first = nil
        await server.waitUntilOpenConnections(atMost: 1)
        let fourth = try await RawHTTPConnection.open(port: server.port)
        #expect(try await fourth.request("/4").text == "/4")
        #expect(try await second.request("/2b").text == "/2b")
        #expect(handler.requests.map(\.path) == ["/1", "/2", "/4", "/2b"])
        await server.shutdown()
    }

    @Test func zeroMeansNoLimitPerClient() async throws {
        let handler = ClosureHandler { request in ServerResponse(status: 200, body: Data(request.path.utf8)) }
        let server = try HTTPServerRequestTests.makeServer(handler) {
            $0.threadCount = 1
            $0.connectionsPerClientLimit = 0
        }
        var connections: [RawHTTPConnection] = []
        for index in 0..<3 {
            let connection = try await RawHTTPConnection.open(port: server.port)
            #expect(try await connection.request("/\(index)").text == "/\(index)")
            connections.append(connection)
        }
        #expect(server.openConnectionCount == 3)
        await server.shutdown()
    }

    /// A client that sends a byte every 20 ms never lets the idle timeout (600 s here) fire; the
    /// deadline closes it. Requests sent whole are answered, and a handler's time does not count.
    @Test func aClientTricklingItsRequestIsClosedAtTheDeadline() async throws {
        let gate = AsyncGate()
        let handler = ClosureHandler { request in
            if request.path == "/slow-handler" { await gate.wait() }
            return ServerResponse(status: 200, body: Data(request.path.utf8))
        }
        let deadline = Duration.milliseconds(500)
        let server = try HTTPServerRequestTests.makeServer(handler) {
            $0.requestHeadTimeout = deadline
        }
        // A request whose handler outlasts the deadline.
        let busy = try await RawHTTPConnection.open(port: server.port, sending: "GET /slow-handler HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await gate.waitForArrivals(1)

        let elapsed = try await RawHTTPConnection.trickle(
            port: server.port,
            head: "GET /trickle HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: ",
            every: .milliseconds(20),
            giveUpAfter: .seconds(30)
        )
        let closedAfter = try #require(elapsed, "the trickling connection was still open after 30 s")
        #expect(closedAfter >= deadline)
        // The server checks every quarter of the deadline (125 ms); the rest is room for the
        // scheduling of a loaded machine.
        #expect(closedAfter < deadline + .seconds(1), "closed \(closedAfter) after connecting")

        gate.open()
        let late = try await busy.readResponse()
        #expect(late.status == 200)
        #expect(late.text == "/slow-handler")
        let normal = try await RawHTTPConnection.open(port: server.port, sending: "GET /normal HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try await normal.readResponse().text == "/normal")
        #expect(handler.requests.map(\.path) == ["/slow-handler", "/normal"], "the trickled request never reached the handler")
        await server.shutdown()
    }

    /// The sweep alone, on socket pairs: only a connection that has owed a request for the
    /// deadline is shut down, and nothing once stopped.
    @Test func theSweepShutsDownOnlyConnectionsPastTheirDeadline() throws {
        #expect(OpenConnections(deadline: .seconds(10)).sweepInterval == .seconds(1))
        #expect(OpenConnections(deadline: .milliseconds(400)).sweepInterval == .milliseconds(100))
        #expect(OpenConnections(deadline: .zero).deadline == nil)
        func pair() throws -> (server: Int32, client: Int32) {
            var ends: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
            return (ends[0], ends[1])
        }
        /// Whether the client end sees the end of the stream (else nothing to read yet).
        func isShutDown(_ client: Int32) -> Bool {
            var byte: UInt8 = 0
            return recv(client, &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }
        let late = try pair(), answering = try pair(), answered = try pair(), stoppedPair = try pair()
        defer { for end in [late, answering, answered, stoppedPair].flatMap({ [$0.server, $0.client] }) { close(end) } }
        let connections = OpenConnections(deadline: .seconds(10))
        connections.opened(1, descriptor: late.server)
        connections.opened(2, descriptor: answering.server)
        connections.requestArrived(2)
        connections.opened(3, descriptor: answered.server)
        connections.requestArrived(3)
        #expect(connections.count == 3)
        // After the connections opened: each has owed its request since before `start`.
        let start = ContinuousClock.now
        #expect(connections.closeLateConnections(now: start + .seconds(9)))
        #expect(!isShutDown(late.client), "not late yet")
        // Its request ends at some point after `start`: it owes the next one from then.
        connections.requestEnded(3)
        #expect(connections.closeLateConnections(now: start + .seconds(10)))
        #expect(isShutDown(late.client))
        #expect(!isShutDown(answering.client), "a request being answered owes nothing")
        #expect(!isShutDown(answered.client), "the deadline counts from the end of the previous request")
        connections.closed(1)
        #expect(connections.count == 2)

        connections.opened(4, descriptor: stoppedPair.server)
        connections.stop()
        #expect(!connections.closeLateConnections(now: .now + .seconds(60)))
        #expect(!isShutDown(stoppedPair.client), "nothing is shut down once stopped")
    }

    @Test(arguments: [
        [("Content-Type", "text/plain")],
        [("Content-Type", "text/plain"), ("x-content-type-options", "nosniff")],
    ])
    func everyAnswerSaysNosniffOnce(headers: [(String, String)]) async throws {
        let handler = ClosureHandler { _ in ServerResponse(status: 200, headers: headers.map { (name: $0.0, value: $0.1) }, body: Data("ok".utf8)) }
        let server = try HTTPServerRequestTests.makeServer(handler) { $0.requestBodyLimit = 10 }
        let connection = try await RawHTTPConnection.open(port: server.port)
        let answer = try await connection.request("/")
        #expect(answer.headers.filter { $0.name.lowercased() == "x-content-type-options" }.map(\.value) == ["nosniff"])
        // The server's own answers too: a body over the limit.
        let refused = try await RawHTTPConnection.open(port: server.port)
        let tooLarge = try await refused.request("/", method: "POST", headers: ["Content-Length: 11"])
        #expect(tooLarge.status == 413)
        #expect(tooLarge.header("X-Content-Type-Options") == "nosniff")
        await server.shutdown()
    }
}
