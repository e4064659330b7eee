import Foundation
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
///   bytes, AUTH refused) closes that connection and starts a backoff
///   (``Configuration/initialReconnectDelay``, doubling to ``Configuration/maximumReconnectDelay``)
///   during which round trips fail at once with ``RedisClientError/Kind/backingOff``; the
///   first round trip after it tries the server again, and a success ends the backoff. No
///   background task is involved: reconnecting is driven by use.
/// - **Errors.** Methods throw ``/WebImageCore/WebImageError`` with code `cacheFailure`, a
///   message naming the server and the command, and a ``RedisClientError`` as the underlying
///   error. Error replies (`-ERR ...`) are not thrown: they are ``RedisValue/error(_:)``.
///
/// Thread-safety: every method may be called from any thread and concurrently.
public final class RedisClient: Sendable {
    /// Where the server is and how the client talks to it.
    public let configuration: Configuration
    private let pool: ConnectionPool
    private let parser: RESPParser

    /// A client for the server `configuration` names. Makes no connection yet: the first
    /// round trip connects.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.pool = ConnectionPool(configuration: configuration)
        self.parser = RESPParser(maxReplySize: max(1024, configuration.maxReplySize))
    }

    deinit {
        pool.shutdown()
    }

    /// The counters since the client was made.
    public var statistics: Statistics {
        pool.statistics
    }

    /// When the reconnect backoff ends, or `nil` when the client is not backing off (the next
    /// round trip talks to the server).
    public var reconnectAllowedAt: ContinuousClock.Instant? {
        pool.reconnectAllowedAt
    }

    /// Sends one command and returns its reply (an error reply is a value, not thrown).
    /// - Throws: ``/WebImageCore/WebImageError`` (`cacheFailure`, with a ``RedisClientError``)
    ///   when the round trip fails; `cancelled` when the task was cancelled before it started.
    public func send(_ command: RedisCommand) async throws -> RedisValue {
        try await pipeline([command])[0]
    }

    /// Sends `commands` in one write and returns their replies, in order (pipelining: one round
    /// trip for all of them).
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
        let slot: PoolSlot
        do {
            slot = try await pool.acquire(deadline: deadline)
        } catch let error as RedisClientError {
            throw failure(error, what: what)
        } catch {
            throw WebImageError.cancelled("Redis \(what) to \(configuration.endpoint) cancelled while waiting for a connection")
        }
        if deadline.hasPassed {
            // Handed a connection only as the time ran out: the server is not to blame, and
            // the connection stays pooled.
            pool.release(slot, outcome: .unused)
            throw failure(RedisClientError(.timedOut, "no connection to \(configuration.endpoint) became free within the command timeout of \(configuration.commandTimeout) s"), what: what)
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[RedisValue], RedisClientError>, Never>) in
            slot.queue.async { [self] in
                continuation.resume(returning: roundTrip(commands, what: what, on: slot, deadline: deadline))
            }
        }
        switch result {
        case .success(let replies):
            pool.release(slot, outcome: .success)
            return replies
        case .failure(let error):
            pool.release(slot, outcome: .failure(error))
            throw failure(error, what: what)
        }
    }

    /// Whether the server answers `PING` with `PONG` now (within the command timeout).
    public func ping() async -> Bool {
        (try? await send(.ping)) == .simpleString("PONG")
    }

    /// Closes the idle connections; later round trips fail with
    /// ``RedisClientError/Kind/shutDown``. Round trips in flight finish first. Also done when
    /// the client is released.
    public func shutdown() {
        pool.shutdown()
    }

    // MARK: Round trips (on a slot's queue)

    /// Writes `commands` and reads their replies on `slot`'s connection, (re)connecting first
    /// if needed. Runs on the slot's serial queue.
    private func roundTrip(_ commands: [RedisCommand], what: String, on slot: PoolSlot, deadline: Deadline) -> Result<[RedisValue], RedisClientError> {
        let bytes = RESPEncoder.encode(commands)
        var retried = false
        while true {
            var reused = false
            do throws(RedisClientError) {
                if let connection = slot.connection, connection.isStale {
                    connection.close()
                    slot.connection = nil
                    pool.record { $0.staleConnectionsReplaced += 1 }
                }
                let connection: RedisConnection
                if let existing = slot.connection {
                    connection = existing
                    reused = true
                } else {
                    connection = try openConnection(deadline: deadline)
                    slot.connection = connection
                }
                try connection.send(bytes, deadline: deadline, what: what)
                return .success(try connection.receive(commands.count, parser: parser, deadline: deadline, what: what))
            } catch {
                slot.connection?.close()
                slot.connection = nil
                if reused, !retried, error.kind == .connectionClosed, !deadline.hasPassed {
                    retried = true
                    pool.record { $0.staleConnectionsReplaced += 1 }
                    continue
                }
                return .failure(error)
            }
        }
    }

    /// Connects and runs the handshake (AUTH, SELECT) pipelined, within the connect timeout
    /// cut to `deadline`.
    private func openConnection(deadline: Deadline) throws(RedisClientError) -> RedisConnection {
        let connectDeadline = min(deadline, Deadline.after(seconds: configuration.connectTimeout))
        let connection = try RedisConnection.connect(host: configuration.host, port: configuration.port, deadline: connectDeadline)
        var handshake: [RedisCommand] = []
        if let password = configuration.password {
            handshake.append(.auth(username: configuration.username, password: password))
        }
        if configuration.database != 0 {
            handshake.append(.select(configuration.database))
        }
        if !handshake.isEmpty {
            try connection.send(RESPEncoder.encode(handshake), deadline: connectDeadline, what: "the handshake")
            let replies = try connection.receive(handshake.count, parser: parser, deadline: connectDeadline, what: "the handshake")
            for (command, reply) in zip(handshake, replies) {
                if case .error(let message) = reply {
                    connection.close()
                    throw RedisClientError(.handshakeRejected, "\(configuration.endpoint) refused \(command.name): \(message)")
                }
            }
        }
        pool.record { $0.connectionsOpened += 1 }
        return connection
    }

    /// The error thrown for a failed round trip.
    private func failure(_ error: RedisClientError, what: String) -> WebImageError {
        WebImageError(.cacheFailure, "Redis \(what) failed: \(error.message)", underlyingError: error)
    }
}
