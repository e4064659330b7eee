import Foundation
import Testing
import WebImageCore
@testable import WebImageHTTPServer
import WebImageServer
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A client that hangs up while its request is answered cancels the handler's task (issue 33);
/// one that stays, even with its next request already sent, does not. Cheap answers go out
/// without a task.
@Suite(.timeLimit(.minutes(3)))
struct HTTPServerHangUpTests {
    /// A handler whose requests wait on `gate` (as long work would) and record a cancellation.
    final class WaitingHandler: Sendable {
        let gate = AsyncGate()
        /// Opened when a request's task is cancelled.
        let cancellation = AsyncGate()
        /// The paths whose task was cancelled, in order.
        let cancelled = Locked<[String]>([])
        /// The paths whose handler saw its task cancelled when it returned.
        let sawCancelled = Locked<[String]>([])
        /// Opened when a handler returns.
        let returned = AsyncGate()

        func handler(waitingOn paths: Set<String>) -> ClosureHandler {
            ClosureHandler { [self] request in
                if paths.contains(request.path) {
                    await withTaskCancellationHandler {
                        await gate.wait()
                    } onCancel: {
                        cancelled.withLock { $0.append(request.path) }
                        cancellation.open()
                    }
                    if Task.isCancelled { sawCancelled.withLock { $0.append(request.path) } }
                    returned.open()
                }
                return ServerResponse(status: 200, body: Data(request.path.utf8))
            }
        }
    }

    @Test func aClientThatHangsUpCancelsItsRequestAndItsConnectionCloses() async throws {
        let waiting = WaitingHandler()
        let server = try HTTPServerRequestTests.makeServer(waiting.handler(waitingOn: ["/slow"]))
        let client = try await RawHTTPConnection.open(port: server.port)
        try await client.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await waiting.gate.waitForArrivals(1)
        #expect(server.watchedRequestCount == 1, "the suspended request's socket is watched")
        client.close()
        // Deterministic: the handler's cancellation handler opens this gate.
        await waiting.cancellation.wait()
        await waiting.returned.wait()
        #expect(waiting.cancelled.withLock { $0 } == ["/slow"])
        #expect(waiting.sawCancelled.withLock { $0 } == ["/slow"])
        // The connection was resumed and closed without an answer: nothing is left open.
        await server.waitUntilOpenConnections(atMost: 0)
        #expect(server.openConnectionCount == 0)
        #expect(server.watchedRequestCount == 0)
        // The request completed (libmicrohttpd's request-completed callback ran): shutdown
        // finds nothing in flight and does not wait out its grace period.
        await server.shutdown(gracePeriod: .seconds(600))
    }

    @Test func aKeptAliveClientWithItsNextRequestSentIsNotCancelled() async throws {
        let waiting = WaitingHandler()
        let server = try HTTPServerRequestTests.makeServer(waiting.handler(waitingOn: ["/slow", "/leaving"])) { $0.threadCount = 1 }
        let staying = try await RawHTTPConnection.open(port: server.port)
        try await staying.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await waiting.gate.waitForArrivals(1)
        // Pipelined while the first is answered: the bytes wait, unread, in the socket.
        try await staying.send("GET /next HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // A client that leaves afterwards: its hang-up is reported no earlier than anything
        // the staying client's bytes could have caused.
        let leaving = try await RawHTTPConnection.open(port: server.port)
        try await leaving.send("GET /leaving HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await waiting.gate.waitForArrivals(2)
        leaving.close()
        await waiting.cancellation.wait()
        #expect(waiting.cancelled.withLock { $0 } == ["/leaving"], "data to read is no hang-up")
        waiting.gate.open()
        #expect(try await staying.readResponse().text == "/slow")
        #expect(try await staying.readResponse().text == "/next")
        #expect(waiting.cancelled.withLock { $0 } == ["/leaving"])
        await server.waitUntilOpenConnections(atMost: 1)
        staying.close()
        await server.waitUntilOpenConnections(atMost: 0)
        await server.shutdown(gracePeriod: .seconds(600))
    }

    @Test func anAnswerReadyBeforeTheHangUpIsNotCancelled() async throws {
        let waiting = WaitingHandler()
        let server = try HTTPServerRequestTests.makeServer(waiting.handler(waitingOn: []))
        let client = try await RawHTTPConnection.open(port: server.port)
        for index in 0..<3 {
            #expect(try await client.request("/quick\(index)").text == "/quick\(index)")
        }
        // Each answered request's watch ended with its answer.
        #expect(server.watchedRequestCount == 0)
        client.close()
        await server.waitUntilOpenConnections(atMost: 0)
        #expect(waiting.cancelled.withLock { $0 }.isEmpty)
        await server.shutdown(gracePeriod: .seconds(600))
    }

    /// The watch alone, on socket pairs: the end of the peer's stream is reported once, data
    /// to read is not, and a watch ends when stopped or when its connection closes.
    @Test func theWatchReportsTheEndOfTheStreamNotData() async throws {
        func pair() throws -> (server: Int32, client: Int32) {
            var ends: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
            return (ends[0], ends[1])
        }
        let talking = try pair(), leaving = try pair(), stopped = try pair()
        defer { for end in [talking.server, talking.client, leaving.server, stopped.server] { close(end) } }
        let connections = OpenConnections(deadline: nil)
        connections.start()
        defer { connections.stop() }
        connections.opened(1, descriptor: talking.server)
        connections.opened(2, descriptor: leaving.server)
        connections.opened(3, descriptor: stopped.server)
        let reported = Locked<[Int]>([])
        let gate = AsyncGate()
        let talkingWatch = try #require(connections.watchForHangUp(1) { reported.withLock { $0.append(1) }; gate.open() })
        _ = try #require(connections.watchForHangUp(2) { reported.withLock { $0.append(2) }; gate.open() })
        let stoppedWatch = try #require(connections.watchForHangUp(3) { reported.withLock { $0.append(3) }; gate.open() })
        #expect(connections.watchCount == 3)
        #expect(connections.watchForHangUp(9) { } == nil, "an unknown connection is not watched")
        connections.stopWatching(stoppedWatch)
        close(stopped.client)
        var next = Array("GET /next HTTP/1.1\r\n\r\n".utf8)
        #expect(send(talking.client, &next, next.count, 0) == next.count)
        close(leaving.client)
        await gate.wait()
        #expect(reported.withLock { $0 } == [2])
        #expect(connections.watchCount == 1, "a reported watch ends")
        // A watch replaced for the connection's next request: the old token no longer counts.
        let replacement = try #require(connections.watchForHangUp(1) { reported.withLock { $0.append(10) } })
        #expect(replacement != talkingWatch)
        connections.stopWatching(talkingWatch)
        #expect(connections.watchCount == 1)
        connections.closed(1)
        #expect(connections.watchCount == 0, "a closed connection's watch ends")
        #expect(reported.withLock { $0 } == [2])
    }

    @Test func anImmediateAnswerNeedsNoTaskEvenWhileTasksAreHeld() async throws {
        let waiting = WaitingHandler()
        let inner = waiting.handler(waitingOn: ["/slow"])
        let handler = ClosureHandler(immediate: { request in
            request.path == "/fast" ? ServerResponse(status: 200, headers: [("X-Path", "fast")], body: Data("fast".utf8)) : nil
        }) { request in
            await inner.respond(to: request)
        }
        let server = try HTTPServerRequestTests.makeServer(handler) { $0.threadCount = 1 }
        let slow = try await RawHTTPConnection.open(port: server.port)
        try await slow.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await waiting.gate.waitForArrivals(1)
        let client = try await RawHTTPConnection.open(port: server.port)
        let fast = try await client.request("/fast")
        #expect(fast.status == 200 && fast.text == "fast" && fast.header("X-Path") == "fast")
        #expect(fast.header("X-Content-Type-Options") == "nosniff")
        let head = try await client.request("/fast", method: "HEAD")
        #expect(head.status == 200 && head.header("Content-Length") == "4" && head.body.isEmpty)
        #expect(server.answerCounts == (immediate: 2, inTasks: 1))
        #expect(try await client.request("/other").text == "/other")
        #expect(server.answerCounts == (immediate: 2, inTasks: 2))
        waiting.gate.open()
        #expect(try await slow.readResponse().text == "/slow")
        await server.shutdown()
    }
}
