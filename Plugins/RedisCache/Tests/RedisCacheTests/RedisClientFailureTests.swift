import Foundation
import Testing
import WebImageCore
import RedisServerHarness
import WebImageTestSupport
@testable import RedisCache

/// The client when the server is silent, full, absent or gone: timeouts, refusals and the
/// reconnect backoff. Fake servers on loopback make these deterministic; no redis-server needed.
@Suite(.whenThePoolResponds) struct RedisClientFailureTests {
    @Test func aSilentServerHitsTheCommandTimeout() async throws {
        let server = try SilentServer(mode: .silent)
        defer { server.stop() }
        let client = RedisClient(configuration: .init(port: server.port, connectTimeout: 5, commandTimeout: 0.3, initialReconnectDelay: 0))
        let start = ContinuousClock.now
        let error = await #expect(throws: WebImageError.self) { try await client.send(.get(Data("k".utf8))) }
        let elapsed = ContinuousClock.now - start
        #expect(error?.code == .cacheFailure)
        #expect((error?.underlyingError as? RedisClientError)?.kind == .timedOut)
        #expect(error?.message.contains("did not answer GET within the command timeout") == true)
        // It waited for the timeout (that is the behaviour), and not much longer.
        #expect(elapsed >= .milliseconds(290))
        #expect(elapsed < RedisTestEnvironment.timeoutBound)
        #expect(client.statistics.timeouts == 1)
        #expect(client.statistics.connectionsOpened == 1)
    }

    #if os(Linux)
    @Test func aServerThatTakesNoConnectionHitsTheConnectTimeout() async throws {
        let server = try SilentServer(mode: .fullBacklog)
        defer { server.stop() }
        let client = RedisClient(configuration: .init(port: server.port, connectTimeout: 0.3, commandTimeout: 600, initialReconnectDelay: 0))
        let start = ContinuousClock.now
        let error = await #expect(throws: WebImageError.self) { try await client.send(.ping) }
        let elapsed = ContinuousClock.now - start
        #expect((error?.underlyingError as? RedisClientError)?.kind == .connectFailed)
        #expect(error?.message.contains("the connect timeout passed") == true)
        // The connect timeout, not the 600 s command timeout, ended it.
        #expect(elapsed < RedisTestEnvironment.timeoutBound)
        #expect(client.statistics.connectFailures == 1)
    }
    #endif

    @Test func aClosedPortIsRefusedAtOnce() async throws {
        // Bound and never listened on for the whole test: no other suite's server can take it.
        let closed = try ClosedLoopbackPort()
        let port = closed.port
        let client = RedisClient(configuration: .init(port: port, initialReconnectDelay: 0))
        let error = await #expect(throws: WebImageError.self) { try await client.send(.ping) }
        #expect((error?.underlyingError as? RedisClientError)?.kind == .connectFailed)
        #expect(error?.message.contains("127.0.0.1:\(port)") == true)
        #expect(await client.ping() == false)
        withExtendedLifetime(closed) {}
    }

    @Test func badHostsAndPortsAreConnectFailures() async throws {
        for configuration in [RedisClient.Configuration(port: 0), RedisClient.Configuration(port: 70_000), RedisClient.Configuration(host: "no such host name", port: 6379)] {
            var configuration = configuration
            configuration.initialReconnectDelay = 0
            let error = await #expect(throws: WebImageError.self) { try await RedisClient(configuration: configuration).send(.ping) }
            #expect((error?.underlyingError as? RedisClientError)?.kind == .connectFailed, "\(configuration.endpoint)")
        }
    }

    @Test func waitingForAConnectionCountsAgainstTheCommandTimeout() async throws {
        let server = try SilentServer(mode: .silent)
        defer { server.stop() }
        let client = RedisClient(configuration: .init(port: server.port, commandTimeout: 0.3, maxConnections: 1, initialReconnectDelay: 0))
        let start = ContinuousClock.now
        let kinds = await withTaskGroup(of: RedisClientError.Kind?.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    do {
                        _ = try await client.send(.ping)
                        return nil
                    } catch {
                        return (error as? WebImageError)?.underlyingError.flatMap { $0 as? RedisClientError }?.kind
                    }
                }
            }
            return await group.reduce(into: [RedisClientError.Kind?]()) { $0.append($1) }
        }
        #expect(kinds.count == 3)
        #expect(kinds.allSatisfy { $0 == .timedOut || $0 == .connectFailed })
        #expect(ContinuousClock.now - start < RedisTestEnvironment.timeoutBound)
    }

    @Test func afterAFailureTheClientBacksOffWithoutTouchingTheNetwork() async throws {
        let port = try LoopbackSockets.freePort()
        let client = RedisClient(configuration: .init(port: port, initialReconnectDelay: 30, maximumReconnectDelay: 60))
        let first = await #expect(throws: WebImageError.self) { try await client.send(.ping) }
        #expect((first?.underlyingError as? RedisClientError)?.kind == .connectFailed)
        let retryAt = try #require(client.reconnectAllowedAt)
        #expect(retryAt > .now + .seconds(20))

        for _ in 0..<5 {
            let error = await #expect(throws: WebImageError.self) { try await client.send(.ping) }
            #expect((error?.underlyingError as? RedisClientError)?.kind == .backingOff)
        }
        #expect(client.statistics.connectFailures == 1)
        #expect(client.statistics.rejectedWhileBackingOff == 5)
    }

    @Test(arguments: [(1, 0.1), (2, 0.2), (3, 0.4), (4, 0.8), (5, 1.0), (40, 1.0)])
    func theBackoffDoublesUpToItsMaximum(failures: Int, expected: Double) {
        let delay = ConnectionPool.reconnectDelay(afterFailures: failures, initial: 0.1, maximum: 1, jitter: 1)
        #expect(delay.map { abs($0 - expected) < 1e-9 } == true)
        let jittered = ConnectionPool.reconnectDelay(afterFailures: failures, initial: 0.1, maximum: 1, jitter: 0.75)
        #expect(jittered.map { abs($0 - expected * 0.75) < 1e-9 } == true)
        #expect(ConnectionPool.reconnectDelay(afterFailures: failures, initial: 0, maximum: 1, jitter: 1) == nil)
        #expect(ConnectionPool.reconnectDelay(afterFailures: failures, initial: .nan, maximum: 1, jitter: 1) == nil)
        // Absurd settings are cut to a day rather than overflowing.
        #expect(ConnectionPool.reconnectDelay(afterFailures: failures, initial: 1e300, maximum: .infinity, jitter: 1) == Double(86_400))
    }
}
