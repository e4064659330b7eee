import Foundation
import Testing
import WebImageCore
import WebImageHTTPServer
import WebImageServer
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Starting, limits, and stopping.
@Suite struct HTTPServerLifecycleTests {
    @Test func aTakenPortIsAClearError() async throws {
        let first = try HTTPServerRequestTests.makeServer(ClosureHandler { _ in ServerResponse(status: 200) })
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = first.port
        let second = HTTPServer(configuration: configuration, handler: ClosureHandler { _ in ServerResponse(status: 200) })
        let error = try #require(throws: WebImageError.self) { try second.start() }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("port \(first.port)"))
        #expect(error.message.contains("in use"))
        // The first server is unaffected.
        let connection = try await RawHTTPConnection.open(port: first.port)
        #expect(try await connection.request("/").status == 200)
        await first.shutdown()
    }

    @Test func badAddressesAreClearErrors() throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "not an address"
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, handler: ClosureHandler { _ in ServerResponse(status: 200) })
        let error = try #require(throws: WebImageError.self) { try server.start() }
        #expect(error.message.contains("not an address"))

        configuration.host = "127.0.0.1"
        configuration.port = 70000
        let badPort = HTTPServer(configuration: configuration, handler: ClosureHandler { _ in ServerResponse(status: 200) })
        #expect(throws: WebImageError.self) { try badPort.start() }
    }

    @Test func startingTwiceIsAnError() async throws {
        let server = try HTTPServerRequestTests.makeServer(ClosureHandler { _ in ServerResponse(status: 200) })
        #expect(throws: WebImageError.self) { try server.start() }
        await server.shutdown()
        #expect(throws: WebImageError.self) { try server.start() }
    }

    @Test func gracefulShutdownFinishesTheRequestInFlightAndRefusesNewConnections() async throws {
        let gate = AsyncGate()
        let log = Locked([String]())
        let handler = ClosureHandler { request in
            await gate.wait()
            log.withLock { $0.append("handler answered") }
            return ServerResponse(status: 200, body: Data("finished \(request.path)".utf8))
        }
        let server = try HTTPServerRequestTests.makeServer(handler)
        let port = server.port
        let inFlight = try await RawHTTPConnection.open(port: port)
        try await inFlight.send("GET /in-flight HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await gate.waitForArrivals(1)

        server.stopAccepting()
        #expect(await RawHTTPConnection.connectError(port: port) == ECONNREFUSED)

        let shutdown = Task {
            await server.shutdown(gracePeriod: .seconds(600))
            log.withLock { $0.append("shutdown returned") }
        }
        gate.open()
        let response = try await inFlight.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "finished /in-flight")
        #expect(response.header("Connection")?.lowercased() == "close")
        await shutdown.value
        #expect(log.withLock { $0 } == ["handler answered", "shutdown returned"])
        #expect(await RawHTTPConnection.connectError(port: port) == ECONNREFUSED)
    }

    @Test func shutdownAnswersWhatOutlivesTheGracePeriodWith503() async throws {
        let gate = AsyncGate()
        let handler = ClosureHandler { _ in
            await gate.wait()
            return ServerResponse(status: 200)
        }
        let server = try HTTPServerRequestTests.makeServer(handler)
        let stuck = try await RawHTTPConnection.open(port: server.port)
        try await stuck.send("GET /stuck HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await gate.waitForArrivals(1)
        await server.shutdown(gracePeriod: .zero)
        let response = try await stuck.readResponse()
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
        #expect(try await stuck.readToEnd().isEmpty)
        // The handler's late answer goes nowhere and harms nothing.
        gate.open()
        await server.shutdown()
    }

    @Test func shutdownTwiceConcurrentlyAndOfANeverStartedServerIsHarmless() async throws {
        let server = try HTTPServerRequestTests.makeServer(ClosureHandler { _ in ServerResponse(status: 200) })
        async let first: Void = server.shutdown()
        async let second: Void = server.shutdown()
        _ = await (first, second)
        await server.shutdown()
        let idle = HTTPServer(configuration: HTTPServerConfiguration(), handler: ClosureHandler { _ in ServerResponse(status: 200) })
        await idle.shutdown()
        await idle.shutdown()
    }

    @Test func releasingARunningServerStopsItEvenWithARequestSuspended() async throws {
        let gate = AsyncGate()
        let handler = ClosureHandler { _ in
            await gate.wait()
            return ServerResponse(status: 200)
        }
        var server: HTTPServer? = try HTTPServerRequestTests.makeServer(handler)
        let port = try #require(server?.port)
        let stuck = try await RawHTTPConnection.open(port: port)
        try await stuck.send("GET /stuck HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await gate.waitForArrivals(1)
        server = nil
        #expect(await RawHTTPConnection.connectError(port: port) == ECONNREFUSED)
        let rest = try await stuck.readToEnd()
        #expect(!String(decoding: rest, as: UTF8.self).contains("200 OK"))
        gate.open()
        #expect(handler.requests.count == 1)
    }

    @Test func idleConnectionsAreClosedAfterTheTimeout() async throws {
        let server = try HTTPServerRequestTests.makeServer(ClosureHandler { _ in ServerResponse(status: 200) }) {
            $0.connectionTimeout = .seconds(1)
        }
        // A connection that sends nothing. (No request first: on a loaded machine the gap
        // between two client calls may itself outlast the one-second timeout.)
        let connection = try await RawHTTPConnection.open(port: server.port)
        // Blocks until the server closes the idle connection (about a second), not a sleep;
        // without the timeout the client's 300-second receive timeout would throw instead.
        #expect(try await connection.readToEnd().isEmpty)
        await server.shutdown()
    }

    @Test func aRequestSlowerThanTheIdleTimeoutIsStillAnswered() async throws {
        let gate = AsyncGate()
        let handler = ClosureHandler { _ in
            await gate.wait()
            return ServerResponse(status: 200, body: Data("late".utf8))
        }
        let server = try HTTPServerRequestTests.makeServer(handler) {
            $0.connectionTimeout = .seconds(1)
        }
        let connection = try await RawHTTPConnection.open(port: server.port, sending: "GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await gate.waitForArrivals(1)
        // The time under test: the handler works for more than twice the idle timeout.
        try await Task.sleep(for: .milliseconds(2500))
        gate.open()
        let response = try await connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "late")
        await server.shutdown()
    }

    @Test func connectionsOverTheLimitWaitUntilOneCloses() async throws {
        let handler = ClosureHandler { request in ServerResponse(status: 200, body: Data(request.path.utf8)) }
        let server = try HTTPServerRequestTests.makeServer(handler) {
            $0.threadCount = 1
            $0.connectionLimit = 1
        }
        var first: RawHTTPConnection? = try await RawHTTPConnection.open(port: server.port)
        #expect(try await first?.request("/a").text == "/a")
        // The kernel completes the handshake, but the server does not take the connection.
        let second = try await RawHTTPConnection.open(port: server.port)
        try await second.send("GET /b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try await first?.request("/a2").text == "/a2")
        #expect(handler.requests.map(\.path) == ["/a", "/a2"])
        first = nil  // closes it: the server takes the waiting connection
        #expect(try await second.readResponse().text == "/b")
        await server.shutdown()
    }
}
