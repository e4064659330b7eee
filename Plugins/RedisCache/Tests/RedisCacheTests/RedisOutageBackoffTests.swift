import Foundation
import Testing
import RedisServerHarness
import WebImageCore
import WebImageTestSupport
@testable import RedisCache

/// The reconnect backoff is per outage (issue 39): round trips that fail together in one outage
/// start one backoff, one probe at a time tries the server after it, a failed probe doubles
/// it, and a success ends it.
///
/// Deterministic: the round trips of an outage are all lent a connection before any of them
/// fails (the silent server has accepted all of them), and then fail together when it closes
/// them; no test waits for a timeout to pass.
@Suite(.whenThePoolResponds) struct RedisOutageBackoffTests {
    /// Sends `count` PINGs at once to `server` and waits until it holds all their connections.
    /// - Returns: The tasks, each giving its error's kind (or `nil` for a reply).
    static func pingsInFlight(_ count: Int, on client: RedisClient, server: SilentServer) async throws -> [Task<RedisClientError.Kind?, Never>] {
        let before = server.openConnections
        let tasks = (0..<count).map { _ in
            Task { () -> RedisClientError.Kind? in
                do {
                    _ = try await client.send(.ping)
                    return nil
                } catch {
                    return (error as? WebImageError)?.underlyingError.flatMap { $0 as? RedisClientError }?.kind
                }
            }
        }
        let limit = ContinuousClock.now + RedisTestEnvironment.timeoutBound
        while server.openConnections < before + count {
            try #require(ContinuousClock.now < limit, "the server saw \(server.openConnections - before) of \(count) connections")
            try await Task.sleep(for: .milliseconds(1))
        }
        return tasks
    }

    static func kind(_ error: (any Error)?) -> RedisClientError.Kind? {
        (error as? WebImageError)?.underlyingError.flatMap { $0 as? RedisClientError }?.kind
    }

    @Test func roundTripsFailingTogetherStartOneBackoff() async throws {
        let server = try SilentServer(mode: .silent)
        defer { server.stop() }
        // Before issue 39, each of the 8 failures doubled the wait: 60 s x 2^7, cut to 6000 s.
        // A wait this long outlasts any slowness of a loaded machine between the failure and
        // the checks below.
        let client = RedisClient(configuration: .init(port: server.port, connectTimeout: 60, commandTimeout: 60, maxConnections: 8, initialReconnectDelay: 60, maximumReconnectDelay: 6000))
        let tasks = try await Self.pingsInFlight(8, on: client, server: server)
        server.closeConnections()
        var kinds: [RedisClientError.Kind?] = []
        for task in tasks { kinds.append(await task.value) }
        #expect(kinds.allSatisfy { $0 == .connectionClosed }, "\(kinds)")

        let statistics = client.statistics
        #expect(statistics.connectionErrors == 8)
        #expect(statistics.outages == 1)
        let state = try #require(client.nodeStates.first)
        #expect(state.isInOutage && state.outageFailures == 1)
        let retryAt = try #require(state.reconnectAllowedAt)
        #expect(retryAt <= .now + .seconds(60), "one failure's wait, not eight")
    }

    @Test func afterTheBackoffOneProbeAtATimeAndAFailedProbeDoublesTheWait() async throws {
        let server = try SilentServer(mode: .silent)
        defer { server.stop() }
        let client = RedisClient(configuration: .init(port: server.port, connectTimeout: 60, commandTimeout: 60, maxConnections: 4, initialReconnectDelay: 0.05, maximumReconnectDelay: 600))
        let first = try await Self.pingsInFlight(2, on: client, server: server)
        server.closeConnections()
        for task in first { _ = await task.value }
        #expect(client.nodeStates.first?.outageFailures == 1)
        if let retryAt = client.reconnectAllowedAt {
            try await Task.sleep(until: retryAt + .milliseconds(1), clock: .continuous)
        }

        // The probe: lent a connection, and the server keeps it waiting.
        let probe = try await Self.pingsInFlight(1, on: client, server: server)
        #expect(client.statistics.probes == 1)
        for _ in 0..<5 {
            let error = await #expect(throws: WebImageError.self) { try await client.send(.ping) }
            #expect(Self.kind(error) == .backingOff, "the others do not try while the probe runs")
            #expect(error?.message.contains("being tried again") == true, "\(String(describing: error))")
        }
        #expect(server.openConnections == 1, "no second connection while the probe runs")

        server.closeConnections()
        #expect(await probe[0].value == .connectionClosed)
        let state = try #require(client.nodeStates.first)
        #expect(state.outageFailures == 2, "the failed probe doubles the wait")
        #expect(client.statistics.outages == 1, "still the same outage")
        #expect(client.statistics.probes == 1)
    }

    @Test func aSucceedingProbeEndsTheOutage() async throws {
        let redis = try await RedisServerProcess.start()
        defer { redis.stop() }
        let client = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: redis.port, initialReconnectDelay: 0.05, maximumReconnectDelay: 0.2))
        #expect(await client.ping())
        await redis.kill()
        let error = await #expect(throws: WebImageError.self) { try await client.send(.ping) }
        #expect([.connectionClosed, .connectFailed].contains(Self.kind(error)))
        #expect(client.nodeStates.first?.isInOutage == true)

        try await redis.restart()
        if let retryAt = client.reconnectAllowedAt {
            try await Task.sleep(until: retryAt + .milliseconds(1), clock: .continuous)
        }
        #expect(await client.ping(), "the probe after one backoff step reaches the restarted server")
        let state = try #require(client.nodeStates.first)
        #expect(!state.isInOutage && state.outageFailures == 0 && state.reconnectAllowedAt == nil)
        #expect(state.role == .standalone && state.endpoint == RedisEndpoint(host: "127.0.0.1", port: redis.port))
        let statistics = client.statistics
        #expect(statistics.outages == 1 && statistics.recoveries == 1 && statistics.probes == 1)
    }

    @Test(arguments: [
        ("10.0.0.5:7000", RedisEndpoint(host: "10.0.0.5", port: 7000)),
        ("cache.internal", RedisEndpoint(host: "cache.internal", port: 6379)),
        ("[::1]:26379", RedisEndpoint(host: "::1", port: 26379)),
        ("[fd00::5]", RedisEndpoint(host: "fd00::5", port: 6379)),
        ("::1", RedisEndpoint(host: "::1", port: 6379)),
        (" 10.0.0.6:6380 ", RedisEndpoint(host: "10.0.0.6", port: 6380)),
    ])
    func endpointsParse(text: String, expected: RedisEndpoint) throws {
        #expect(try RedisEndpoint(parsing: text) == expected)
    }

    @Test(arguments: ["", ":6379", "host:0", "host:65536", "host:x", "[::1", "[::1]x", "[]:5"])
    func badEndpointsAreRefused(text: String) {
        #expect(throws: RedisClientError.self) { try RedisEndpoint(parsing: text) }
    }
}
