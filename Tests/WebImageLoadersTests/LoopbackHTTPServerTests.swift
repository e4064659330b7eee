import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport

/// The test server itself (TestSupport's `LoopbackHTTPServer`), through a plain URLSession.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct LoopbackHTTPServerTests {
    let server: LoopbackHTTPServer
    let session = URLSession(configuration: .ephemeral)

    init() throws {
        server = try LoopbackHTTPServer()
    }

    private func get(_ path: String, headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: server.url(for: path))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    @Test func listensOnLoopbackOnly() {
        defer { server.stop() }
        #expect(server.baseURL.host == "127.0.0.1")
        #expect(server.port > 0)
        #expect(server.url(for: "/a?b=1").absoluteString == "http://127.0.0.1:\(server.port)/a?b=1")
    }

    @Test func servesFixedBytesAndCountsPerPath() async throws {
        defer { server.stop() }
        server.route("/bytes", .data(Data("hello".utf8), contentType: "text/plain"))
        let (data, response) = try await get("/bytes?x=1", headers: ["X-Test": "1"])
        _ = try await get("/bytes?x=2")
        #expect(data == Data("hello".utf8))
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        let statistics = server.statistics(for: "/bytes")
        #expect(statistics.requestCount == 2)
        #expect(statistics.completedCount == 2)
        #expect(statistics.activeCount == 0)
        #expect(server.requests.map(\.target) == ["/bytes?x=1", "/bytes?x=2"])
        #expect(server.requests.map(\.sequenceNumber) == [0, 1])
        #expect(server.requests.first?.header("x-test") == "1")
    }

    @Test func unroutedPathsAre404() async throws {
        defer { server.stop() }
        let (_, response) = try await get("/nothing")
        #expect(response.statusCode == 404)
    }

    @Test(arguments: [200, 304, 404, 500])
    func anyStatus(status: Int) async throws {
        defer { server.stop() }
        server.route("/status", .status(status))
        #expect(try await get("/status").1.statusCode == status)
    }

    @Test func chunkedBodiesArriveWhole() async throws {
        defer { server.stop() }
        let body = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
        server.route("/chunked", .chunked(body, chunkSize: 333))
        let (data, response) = try await get("/chunked")
        #expect(data == body)
        #expect(response.value(forHTTPHeaderField: "Transfer-Encoding")?.lowercased() == "chunked")
    }

    @Test func redirectsAreFollowedByClients() async throws {
        defer { server.stop() }
        server.route("/from", .redirect(to: "/to"))
        server.route("/to", .data(Data("here".utf8)))
        let (data, _) = try await get("/from")
        #expect(data == Data("here".utf8))
        #expect(server.requests.map(\.path) == ["/from", "/to"])
    }

    @Test func truncatedBodiesFailInTheClient() async throws {
        defer { server.stop() }
        server.route("/short", .truncated(Data(count: 10), declaredLength: 100))
        await #expect(throws: (any Error).self) { _ = try await get("/short") }
    }

    @Test func aGateHoldsTheResponseUntilOpened() async throws {
        defer { server.stop() }
        let gate = AsyncGate()
        server.route("/held", .delayedHeaders(until: gate, then: .data(Data("late".utf8))))
        let session = session
        let url = server.url(for: "/held")
        let task = Task { try await session.data(from: url).0 }
        await gate.waitForArrivals(1)
        await server.waitForRequests(to: "/held")
        #expect(server.statistics(for: "/held").activeCount == 1)
        #expect(server.statistics(for: "/held").completedCount == 0)
        gate.open()
        #expect(try await task.value == Data("late".utf8))
        await server.waitUntil(path: "/held", .completed, reaches: 1)
    }

    @Test func stopEndsHeldResponsesAndIsIdempotent() async throws {
        let gate = AsyncGate()
        server.route("/held", .delayedHeaders(until: gate, then: .data(Data("never".utf8))))
        let session = session
        let url = server.url(for: "/held")
        let task = Task { try await session.data(from: url) }
        await gate.waitForArrivals(1)
        server.stop()
        server.stop()
        await #expect(throws: (any Error).self) { _ = try await task.value }
    }

    @Test func hugeBodiesAreStreamedWithoutBeingHeld() async throws {
        defer { server.stop() }
        server.route("/huge", .huge(byteCount: 3 * 1024 * 1024))
        let (data, _) = try await get("/huge")
        #expect(data.count == 3 * 1024 * 1024)
        #expect(data.allSatisfy { $0 == 0x5A })
    }

    @Test func cancelledWaitsReturnInsteadOfHanging() async {
        defer { server.stop() }
        let gate = AsyncGate()
        let server = server
        // Nothing will ever arrive or be requested: only the cancellations end these waits.
        let arrivals = Task { await gate.waitForArrivals(1) }
        let requests = Task { await server.waitForRequests(to: "/never", count: 1) }
        arrivals.cancel()
        requests.cancel()
        await arrivals.value
        await requests.value
        #expect(gate.arrivals == 0)
        #expect(server.statistics(for: "/never").requestCount == 0)
    }
}
