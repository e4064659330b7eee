public import Foundation
import WebImageCore

/// A small Redis client for what a cache needs: RESP2 over TCP, AUTH and SELECT on connect,
/// any command (GET, SET with PX, DEL, UNLINK, EXISTS, SCAN, PING, ...), pipelining, a
/// connection pool, connect and command timeouts, and reconnects with backoff.
///
/// ```swift
/// let client = RedisClient(configuration: .init(host: "10.0.0.5", password: "secret"))
/// let replies = try await client.pipeline([.set(key, value, expiresInMilliseconds: 60_000), .get(key)])
/// ```
///
/// - **Round trips.** ``send(_:)`` and ``pipeline(_:)`` write their commands in one go and read
///   one reply each. The whole round trip (waiting for a pooled connection, connecting, AUTH
///   and SELECT, writing, reading) finishes within ``Configuration/commandTimeout`` or fails
///   with ``RedisClientError/Kind/timedOut``: a server that is down, slow or silent never holds
///   a caller longer than that.
/// - **Pool.** Up to ``Configuration/maxConnections`` connections, opened on demand and kept.
///   The blocking socket work of each runs on its own serial dispatch queue, never on the Swift
///   concurrency pool. A pooled connection the server has closed (a restart) is noticed before
///   use and replaced; a reused connection that breaks mid round trip is replaced and the
///   round trip tried once more (the cache's commands are idempotent).
/// - **Failures and backoff.** A connection-level failure (refused, timed out, broken, bad
///   bytes, AUTH refused) closes that connection and begins an outage of that server: round
///   trips to it fail at once with ``RedisClientError/Kind/backingOff`` for
///   ``Configuration/initialReconnectDelay``. The backoff is per outage, not per failure:
///   concurrent round trips that fail in the same outage do not lengthen it. After it, one
///   round trip at a time tries the server again (the probe); a failed probe doubles the wait
///   (up to ``Configuration/maximumReconnectDelay``), a success ends the outage. So a server
///   back after an outage is used again within one backoff step. No background task is
///   involved: reconnecting is driven by use. ``nodeStates`` and ``statistics`` show it. (The
///   background activities are the Sentinel topology's `+switch-master` subscription, on a
///   thread of its own, and a cluster's slot map refresh after a `MOVED`, in a task of its own.)
/// - **Topologies.** One server, a Sentinel-managed master, or a Redis Cluster
///   (``Configuration/topology``); see ``Topology``.
/// - **Errors.** Methods throw ``/WebImageCore/WebImageError`` with code `cacheFailure`, a
///   message naming the server and the command, and a ``RedisClientError`` as the underlying
///   error. Error replies (`-ERR ...`) are not thrown: they are ``RedisValue/error(_:)``.
///
/// Thread-safety: every method may be called from any thread and concurrently.
public final class RedisClient: Sendable {
    /// Where the server is and how the client talks to it.
    public let configuration: Configuration
    private let routing: any RedisRouting
    private let counters: Locked<Statistics>

    /// A client for the servers `configuration` names. Makes no connection yet: the first
    /// round trip connects.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let counters = Locked(Statistics())
        let parser = RESPParser(maxReplySize: max(1024, configuration.maxReplySize))
        self.counters = counters
        routing = Self.makeRouting(configuration, counters: counters, parser: parser)
    }

    deinit {
        routing.shutdown()
    }

    /// The counters since the client was made (over all its servers).
    public var statistics: Statistics {
        counters.withLock { $0 }
    }

    /// When the reconnect backoff ends, or `nil` when the client is not backing off (the next
    /// round trip talks to the server). With several servers, the latest of those being backed
    /// off.
    public var reconnectAllowedAt: ContinuousClock.Instant? {
        routing.nodes.compactMap { $0.node.pool.reconnectAllowedAt }.max()
    }

    /// The state of each server the client talks to now: the one server, or the Sentinels, the
    /// master and replicas, or the cluster's nodes.
    public var nodeStates: [NodeState] {
        routing.nodes.map { node, role in
            NodeState(
                endpoint: node.endpoint,
                role: role,
                isInOutage: node.pool.isInOutage,
                reconnectAllowedAt: node.pool.reconnectAllowedAt,
                outageFailures: node.pool.outageFailures
            )
        }
    }

    /// Sends one command and returns its reply (an error reply is a value, not thrown).
    /// - Throws: ``/WebImageCore/WebImageError`` (`cacheFailure`, with a ``RedisClientError``)
    ///   when the round trip fails; `cancelled` when the task was cancelled before it started.
    public func send(_ command: RedisCommand) async throws -> RedisValue {
        try await pipeline([command])[0]
    }

    /// Sends `commands` in one write and returns their replies, in order (pipelining: one round
    /// trip for all of them; in a cluster, one per node the keys live on).
    /// - Throws: ``/WebImageCore/WebImageError`` (`cacheFailure`, with a ``RedisClientError``)
    ///   when the round trip fails (no reply is returned then); `cancelled` when the task was
    ///   cancelled before it started.
    public func pipeline(_ commands: [RedisCommand]) async throws -> [RedisValue] {
        guard !commands.isEmpty else { return [] }
        let what = commands.count == 1 ? commands[0].name : "a pipeline of \(commands.count) commands"
        if Task.isCancelled {
            throw WebImageError.cancelled("Redis \(what) to \(configuration.endpoint) cancelled before it was sent")
        }
        let deadline = Deadline.after(seconds: configuration.commandTimeout)
        do {
            return try await routing.pipeline(commands, what: what, deadline: deadline)
        } catch let error as RedisClientError {
            throw failure(error, what: what)
        } catch {
            throw WebImageError.cancelled("Redis \(what) to \(configuration.endpoint) cancelled while waiting for a connection")
        }
    }

    /// Walks the keys that match `pattern` (a `SCAN` `MATCH` glob) on every data server that
    /// holds keys: the one server, the master, or each master of a cluster. `body` gets each
    /// batch (possibly empty, possibly with keys seen before: `SCAN`'s guarantees); the walk
    /// stops when every server's cursor is back at 0, or when the task is cancelled.
    /// - Parameters:
    ///   - pattern: The `MATCH` pattern.
    ///   - count: The `COUNT` hint per step.
    ///   - body: Called with each batch of keys; an error it throws stops the walk.
    /// - Throws: ``/WebImageCore/WebImageError`` (`cacheFailure`) when a round trip fails or a
    ///   reply is not a `SCAN` reply; what `body` throws.
    public func scanKeys(matching pattern: Data, count: Int = 1000, _ body: ([Data]) async throws -> Void) async throws {
        let primaries: [RedisNode]
        do {
            primaries = try await routing.primaries(deadline: Deadline.after(seconds: configuration.commandTimeout))
        } catch let error as RedisClientError {
            throw failure(error, what: "SCAN")
        }
        for node in primaries {
            var cursor = "0"
            repeat {
                let reply: RedisValue
                do {
                    reply = try await node.roundTrip([.scan(cursor: cursor, match: pattern, count: count)], what: "SCAN", deadline: Deadline.after(seconds: configuration.commandTimeout))[0]
                } catch let error as RedisClientError {
                    throw failure(error, what: "SCAN")
                }
                guard let parts = reply.array, parts.count == 2, let next = parts[0].string, let keys = parts[1].array else {
                    throw WebImageError(.cacheFailure, "Redis SCAN on \(node.endpoint) answered \(reply)")
                }
                try await body(keys.compactMap(\.data))
                cursor = next
            } while cursor != "0" && !Task.isCancelled
        }
    }

    /// Whether the server answers `PING` with `PONG` now (within the command timeout).
    public func ping() async -> Bool {
        (try? await send(.ping)) == .simpleString("PONG")
    }

    /// Closes the idle connections, and ends the failover subscription of the Sentinel
    /// topology (its thread ends within 0.1 s while it listens); later round trips fail with
    /// ``RedisClientError/Kind/shutDown``. Round trips in flight finish first. Also done when
    /// the client is released.
    public func shutdown() {
        routing.shutdown()
    }

    /// The error thrown for a failed round trip.
    private func failure(_ error: RedisClientError, what: String) -> WebImageError {
        WebImageError(.cacheFailure, "Redis \(what) failed: \(error.message)", underlyingError: error)
    }
}
