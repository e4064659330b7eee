import Dispatch
import WebImageCore

/// Lends pooled connections (``PoolSlot``s) to round trips and keeps the reconnect backoff.
///
/// - At most `maxConnections` slots exist; a round trip that finds none free waits in FIFO
///   order, until a slot is returned or its deadline passes (then it fails with
///   ``RedisClientError/Kind/timedOut``), so waiting never outlasts the command timeout.
/// - After a connection-level failure, round trips fail at once with
///   ``RedisClientError/Kind/backingOff`` until the backoff passes (the first one after it tries
///   the server again); every consecutive failure doubles the wait up to the maximum. Waiters
///   queued at the time of the failure fail at once too. A success resets the backoff.
///
/// Thread-safety: all state sits in one ``Locked``; continuations are resumed after the lock
/// is released.
final class ConnectionPool: Sendable {
    /// How a lent slot came back.
    enum Outcome {
        /// The round trip got its replies.
        case success
        /// The round trip failed at the connection level (the slot's connection is closed).
        case failure(RedisClientError)
        /// The slot was not used (its round trip's deadline passed while it waited): says
        /// nothing about the server.
        case unused
    }

    private struct State {
        var idle: [PoolSlot] = []
        var slotCount = 0
        /// Round trips waiting for a slot, first come first served.
        var waiters = WaiterTable<PoolSlot, any Error>()
        var failureStreak = 0
        var retryAt: ContinuousClock.Instant?
        var statistics = RedisClient.Statistics()
        var isShutDown = false
    }

    let configuration: RedisClient.Configuration
    private let state = Locked(State())

    init(configuration: RedisClient.Configuration) {
        self.configuration = configuration
    }

    var statistics: RedisClient.Statistics {
        state.withLock { $0.statistics }
    }

    /// When the backoff ends, if the client is backing off now.
    var reconnectAllowedAt: ContinuousClock.Instant? {
        state.withLock { state in
            guard let retryAt = state.retryAt, ContinuousClock.now < retryAt else { return nil }
            return retryAt
        }
    }

    /// Updates the counters.
    func record(_ update: (inout RedisClient.Statistics) -> Void) {
        state.withLock { update(&$0.statistics) }
    }

    /// A slot for one round trip, waiting (until `deadline`) when all are lent.
    /// - Throws: ``RedisClientError`` (``RedisClientError/Kind/backingOff``,
    ///   ``RedisClientError/Kind/timedOut``, ``RedisClientError/Kind/shutDown``) or
    ///   `CancellationError`.
    func acquire(deadline: Deadline) async throws -> PoolSlot {
        try await state.waitThrowing(in: \.waiters, until: { state, _ in
            if state.isShutDown { throw shutDownError }
            if let retryAt = state.retryAt, ContinuousClock.now < retryAt {
                state.statistics.rejectedWhileBackingOff += 1
                throw backingOffError(until: retryAt)
            }
            if let slot = state.idle.popLast() { return slot }
            if state.slotCount < max(1, configuration.maxConnections) {
                state.slotCount += 1
                return PoolSlot(index: state.slotCount)
            }
            return nil
        }, whenWaiting: { id in
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline.secondsLeft) { [weak self] in
                self?.expireWaiter(id)
            }
        })
    }

    /// Fails the waiter `id` if it is still waiting when its deadline passes.
    private func expireWaiter(_ id: UInt64) {
        let (waiter, busy) = state.withLock { state -> (CheckedContinuation<PoolSlot, any Error>?, Int) in
            guard let waiter = state.waiters.remove(id: id) else { return (nil, 0) }
            state.statistics.timeouts += 1
            return (waiter, state.slotCount)
        }
        waiter?.resume(throwing: RedisClientError(
            .timedOut,
            "none of the \(busy) connections to \(configuration.endpoint) became free within the command timeout of \(configuration.commandTimeout) s"
        ))
    }

    /// Takes back a lent slot: hands it to the first waiter, or keeps it idle. A failure starts
    /// (or lengthens) the backoff and fails every waiter at once.
    func release(_ slot: PoolSlot, outcome: Outcome) {
        var handOff: CheckedContinuation<PoolSlot, any Error>?
        var failed: [CheckedContinuation<PoolSlot, any Error>] = []
        var failure: (any Error)?
        state.withLock { state in
            switch outcome {
            case .success:
                state.statistics.roundTrips += 1
                state.failureStreak = 0
                state.retryAt = nil
            case .failure(let error):
                switch error.kind {
                case .timedOut: state.statistics.timeouts += 1
                case .connectFailed, .handshakeRejected: state.statistics.connectFailures += 1
                case .connectionClosed, .protocolViolation: state.statistics.connectionErrors += 1
                case .backingOff, .shutDown: break
                }
                state.failureStreak += 1
                if let delay = reconnectDelay(afterFailures: state.failureStreak) {
                    let retryAt = ContinuousClock.now + delay
                    state.retryAt = max(state.retryAt ?? retryAt, retryAt)
                    failed = state.waiters.removeAll()
                    failure = backingOffError(until: retryAt, after: error)
                    state.statistics.rejectedWhileBackingOff += failed.count
                }
            case .unused:
                state.statistics.timeouts += 1
            }
            if state.isShutDown {
                state.slotCount -= 1
                slot.closeConnection()
                return
            }
            if let first = state.waiters.removeFirst() {
                handOff = first
            } else {
                state.idle.append(slot)
            }
        }
        handOff?.resume(returning: slot)
        if let failure {
            for waiter in failed { waiter.resume(throwing: failure) }
        }
    }

    /// Closes every idle connection and fails every waiter; later round trips fail with
    /// ``RedisClientError/Kind/shutDown``. Lent slots close when they come back.
    func shutdown() {
        let (idle, waiters) = state.withLock { state -> ([PoolSlot], [CheckedContinuation<PoolSlot, any Error>]) in
            state.isShutDown = true
            defer {
                state.slotCount -= state.idle.count
                state.idle = []
            }
            return (state.idle, state.waiters.removeAll())
        }
        for slot in idle { slot.closeConnection() }
        for waiter in waiters { waiter.resume(throwing: shutDownError) }
    }

    /// The wait before the next attempt after `failures` consecutive failures, or `nil` for
    /// none (an initial delay of 0).
    private func reconnectDelay(afterFailures failures: Int) -> Duration? {
        Self.reconnectDelay(
            afterFailures: failures,
            initial: configuration.initialReconnectDelay,
            maximum: configuration.maximumReconnectDelay,
            jitter: Double.random(in: 0.75...1)
        ).map { .nanoseconds(Int64($0 * 1e9)) }
    }

    /// The backoff rule, in seconds: `initial` doubled per failure after the first, capped at
    /// `maximum` (never below `initial`), times `jitter`, and never over a day; `nil` when
    /// `initial` is not positive.
    static func reconnectDelay(afterFailures failures: Int, initial: Double, maximum: Double, jitter: Double) -> Double? {
        guard initial > 0, initial.isFinite else { return nil }
        let cap = max(initial, maximum.isFinite ? maximum : initial)
        let base = min(cap, initial * Double(1 << min(max(failures - 1, 0), 30)))
        return min(base * jitter, 24 * 3600)
    }

    private var shutDownError: RedisClientError {
        RedisClientError(.shutDown, "the client of \(configuration.endpoint) was shut down")
    }

    private func backingOffError(until retryAt: ContinuousClock.Instant, after error: RedisClientError? = nil) -> RedisClientError {
        let left = Deadline(retryAt).millisecondsLeft
        let cause = error.map { " after: \($0.message)" } ?? ""
        return RedisClientError(.backingOff, "\(configuration.endpoint) is not tried again for \(left) ms\(cause)")
    }
}
