import Dispatch
import WebImageCore

/// One server the client talks to (a standalone server, a master, a replica, a cluster node or
/// a Sentinel): its connection pool, with the pool's backoff, and the round trip on a pooled
/// connection.
///
/// A round trip waits for a pooled connection (until its deadline), (re)connects and runs the
/// handshake when needed, writes the commands in one go and reads one reply each, all on the
/// slot's serial queue. A reused connection that turns out closed (a restart) is replaced and
/// the round trip tried once more: the commands the client sends are idempotent.
final class RedisNode: Sendable {
    /// Where the server is.
    let endpoint: RedisEndpoint
    /// The connections and the backoff.
    let pool: ConnectionPool
    /// Sent (pipelined) on each new connection before any command: AUTH, SELECT.
    private let handshake: [RedisCommand]
    private let connectTimeout: Double
    private let parser: RESPParser

    /// A node at `endpoint` with the pool settings of `configuration`.
    /// - Parameters:
    ///   - endpoint: The server.
    ///   - configuration: Pool size, timeouts and backoff.
    ///   - handshake: The commands each new connection starts with.
    ///   - counters: The client's counters (shared by its nodes).
    ///   - parser: The client's reply parser (its size limit).
    init(endpoint: RedisEndpoint, configuration: RedisClient.Configuration, handshake: [RedisCommand], counters: Locked<RedisClient.Statistics>, parser: RESPParser) {
        self.endpoint = endpoint
        self.pool = ConnectionPool(endpoint: endpoint, configuration: configuration, counters: counters)
        self.handshake = handshake
        self.connectTimeout = configuration.connectTimeout
        self.parser = parser
    }

    /// The handshake for a data server: AUTH when there is a password, SELECT when the
    /// database is not 0.
    static func dataHandshake(_ configuration: RedisClient.Configuration) -> [RedisCommand] {
        var handshake: [RedisCommand] = []
        if let password = configuration.password {
            handshake.append(.auth(username: configuration.username, password: password))
        }
        if configuration.database != 0 {
            handshake.append(.select(configuration.database))
        }
        return handshake
    }

    /// Sends `commands` on a pooled connection and reads their replies, by `deadline`.
    /// - Throws: ``RedisClientError`` for a failure at the connection level (backing off, no
    ///   free connection in time, connect or handshake failed, broken connection, bad bytes);
    ///   `CancellationError` when the task was cancelled while it waited for a connection.
    func roundTrip(_ commands: [RedisCommand], what: String, deadline: Deadline) async throws -> [RedisValue] {
        let lease = try await pool.acquire(deadline: deadline)
        if deadline.hasPassed {
            // Handed a connection only as the time ran out: the server is not to blame, and
            // the connection stays pooled.
            pool.release(lease, outcome: .unused)
            throw RedisClientError(.timedOut, "no connection to \(endpoint) became free within the command timeout")
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[RedisValue], RedisClientError>, Never>) in
            lease.slot.queue.async { [self] in
                continuation.resume(returning: run(commands, what: what, on: lease.slot, deadline: deadline))
            }
        }
        switch result {
        case .success(let replies):
            pool.release(lease, outcome: .success)
            return replies
        case .failure(let error):
            pool.release(lease, outcome: .failure(error))
            throw error
        }
    }

    /// Closes the idle connections; later round trips fail with ``RedisClientError/Kind/shutDown``.
    func shutdown() {
        pool.shutdown()
    }

    // MARK: On a slot's queue

    /// Writes `commands` and reads their replies on `slot`'s connection, (re)connecting first
    /// if needed.
    private func run(_ commands: [RedisCommand], what: String, on slot: PoolSlot, deadline: Deadline) -> Result<[RedisValue], RedisClientError> {
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

    /// Connects and runs the handshake pipelined, within the connect timeout cut to `deadline`.
    private func openConnection(deadline: Deadline) throws(RedisClientError) -> RedisConnection {
        let connectDeadline = min(deadline, Deadline.after(seconds: connectTimeout))
        let connection = try RedisConnection.connect(host: endpoint.host, port: endpoint.port, deadline: connectDeadline)
        if !handshake.isEmpty {
            try connection.send(RESPEncoder.encode(handshake), deadline: connectDeadline, what: "the handshake")
            let replies = try connection.receive(handshake.count, parser: parser, deadline: connectDeadline, what: "the handshake")
            for (command, reply) in zip(handshake, replies) {
                if case .error(let message) = reply {
                    connection.close()
                    throw RedisClientError(.handshakeRejected, "\(endpoint) refused \(command.name): \(message)")
                }
            }
        }
        pool.record { $0.connectionsOpened += 1 }
        return connection
    }
}
