import Dispatch
import WebImageCore

/// Lends pooled connections (``PoolSlot``s) to round trips to one server, and keeps that
/// server's reconnect backoff.
///
/// - At most `maxConnections` slots exist; a round trip that finds none free waits in FIFO
///   order, until a slot is returned or its deadline passes (then it fails with
///   ``RedisClientError/Kind/timedOut``), so waiting never outlasts the command timeout.
/// - **Backoff per outage.** The first connection-level failure begins an outage: round trips
///   fail at once with ``RedisClientError/Kind/backingOff`` until the backoff passes, and the
///   waiters queued at that moment fail too. Failures of round trips that were lent a slot
///   before the outage began (concurrent with the first failure) are counted but neither
///   begin another outage nor lengthen this one. After the backoff, one round trip at a time
///   (the probe) is lent a slot; the others still fail at once. A failed probe doubles the
///   wait (up to the maximum); any success ends the outage.
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

    /// A slot lent to one round trip, and what the pool needs to judge its outcome.
    struct Lease: Sendable {
        /// The slot.
        let slot: PoolSlot
        /// The outage count when the slot was lent: a failure of a lease from before the
        /// current outage is part of it.
        let epoch: Int
        /// Whether this round trip is the probe after a backoff.
        let isProbe: Bool
    }

    /// An outage: the server failed and is not tried until `retryAt`.
    private struct Outage {
        /// Failed attempts of this outage: the first failure, then each failed probe.
        var failures: Int
        var retryAt: ContinuousClock.Instant
        var probeInFlight = false
    }

    private struct State {
        var idle: [PoolSlot] = []
        var slotCount = 0
        /// Round trips waiting for a slot, first come first served.
        var waiters = WaiterTable<Lease, any Error>()
        var outage: Outage?
        /// Outages begun so far; a lease carries the value at the time it was made.
        var epoch = 0
        var isShutDown = false
    }

    /// The server.
    let endpoint: RedisEndpoint
    let configuration: RedisClient.Configuration
    private let counters: Locked<RedisClient.Statistics>
    private let state = Locked(State())

    /// A pool for `endpoint`, counting into `counters` (shared by the client's pools).
    init(endpoint: RedisEndpoint, configuration: RedisClient.Configuration, counters: Locked<RedisClient.Statistics>) {
        self.endpoint = endpoint
        self.configuration = configuration
        self.counters = counters
    }

    /// When the backoff ends, if the server is being backed off now.
    var reconnectAllowedAt: ContinuousClock.Instant? {
        state.withLock { state in
            guard let retryAt = state.outage?.retryAt, ContinuousClock.now < retryAt else { return nil }
            return retryAt
        }
    }

    /// Whether an outage is under way (backing off, or waiting for a probe to succeed).
    var isInOutage: Bool {
        state.withLock { $0.outage != nil }
    }

    /// The failed attempts of the current outage (0 when none).
    var outageFailures: Int {
        state.withLock { $0.outage?.failures ?? 0 }
    }

    /// Updates the counters.
    func record(_ update: (inout RedisClient.Statistics) -> Void) {
        counters.withLock { update(&$0) }
    }

    /// A slot for one round trip, waiting (until `deadline`) when all are lent.
    /// - Throws: ``RedisClientError`` (``RedisClientError/Kind/backingOff``,
    ///   ``RedisClientError/Kind/timedOut``, ``RedisClientError/Kind/shutDown``) or
    ///   `CancellationError`.
    func acquire(deadline: Deadline) async throws -> Lease {
        try await state.waitThrowing(in: \.waiters, until: { state, _ in
            if state.isShutDown { throw shutDownError }
            var isProbe = false
            if let outage = state.outage {
                if ContinuousClock.now < outage.retryAt || outage.probeInFlight {
                    record { $0.rejectedWhileBackingOff += 1 }
                    throw backingOffError(until: outage.retryAt, probing: outage.probeInFlight)
                }
                isProbe = true
            }
            let slot: PoolSlot
            if let idle = state.idle.popLast() {
                slot = idle
            } else if state.slotCount < max(1, configuration.maxConnections) {
                state.slotCount += 1
                slot = PoolSlot(endpoint: endpoint, index: state.slotCount)
            } else if let outage = state.outage {
                // No queueing during an outage: the probe is made by a later round trip,
                // once a round trip from before the outage has given its slot back.
                record { $0.rejectedWhileBackingOff += 1 }
                throw backingOffError(until: outage.retryAt, probing: true)
            } else {
                return nil
            }
            if isProbe {
                state.outage?.probeInFlight = true
                record { $0.probes += 1 }
            }
            return Lease(slot: slot, epoch: state.epoch, isProbe: isProbe)
        }, whenWaiting: { id in
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline.secondsLeft) { [weak self] in
                self?.expireWaiter(id)
            }
        })
    }

    /// Fails the waiter `id` if it is still waiting when its deadline passes.
    private func expireWaiter(_ id: UInt64) {
        let (waiter, busy) = state.withLock { state -> (CheckedContinuation<Lease, any Error>?, Int) in
            guard let waiter = state.waiters.remove(id: id) else { return (nil, 0) }
            return (waiter, state.slotCount)
        }
        guard let waiter else { return }
        record { $0.timeouts += 1 }
        waiter.resume(throwing: RedisClientError(
            .timedOut,
            "none of the \(busy) connections to \(endpoint) became free within the command timeout of \(configuration.commandTimeout) s"
        ))
    }

    /// Takes back a lent slot: hands it to the first waiter, or keeps it idle.
    ///
    /// A failure begins an outage when none is under way and the lease is not older than the
    /// last one (failing every waiter at once); a failed probe doubles the outage's backoff; a
    /// failure of a lease lent before the current outage began changes nothing. Any success
    /// ends the outage.
    func release(_ lease: Lease, outcome: Outcome) {
        var handOff: CheckedContinuation<Lease, any Error>?
        var failed: [CheckedContinuation<Lease, any Error>] = []
        var failure: (any Error)?
        var epoch = 0
        var update: (inout RedisClient.Statistics) -> Void = { _ in }
        let slot = lease.slot
        state.withLock { state in
            switch outcome {
            case .success:
                if state.outage != nil {
                    state.outage = nil
                    update = { $0.roundTrips += 1; $0.recoveries += 1 }
                } else {
                    update = { $0.roundTrips += 1 }
                }
            case .failure(let error):
                let counted: (inout RedisClient.Statistics) -> Void
                switch error.kind {
                case .timedOut: counted = { $0.timeouts += 1 }
                case .connectFailed, .handshakeRejected: counted = { $0.connectFailures += 1 }
                case .connectionClosed, .protocolViolation: counted = { $0.connectionErrors += 1 }
                case .backingOff, .shutDown: counted = { _ in }
                }
                update = counted
                let failures: Int
                if lease.isProbe, let outage = state.outage {
                    failures = outage.failures + 1
                } else if state.outage == nil, lease.epoch == state.epoch {
                    failures = 1
                } else {
                    // Under way when the outage began: part of it.
                    break
                }
                guard let delay = reconnectDelay(afterFailures: failures) else {
                    state.outage = nil
                    break
                }
                let retryAt = ContinuousClock.now + delay
                if failures == 1 {
                    state.epoch += 1
                    update = { counted(&$0); $0.outages += 1 }
                }
                state.outage = Outage(failures: failures, retryAt: retryAt)
                failed = state.waiters.removeAll()
                failure = backingOffError(until: retryAt, after: error)
                let rejected = failed.count
                let before = update
                update = { before(&$0); $0.rejectedWhileBackingOff += rejected }
            case .unused:
                if lease.isProbe { state.outage?.probeInFlight = false }
                update = { $0.timeouts += 1 }
            }
            if state.isShutDown {
                state.slotCount -= 1
                slot.closeConnection()
                return
            }
            if state.outage == nil, let first = state.waiters.removeFirst() {
                // Waiters queue only outside outages (an outage fails them all at once).
                handOff = first
                epoch = state.epoch
            } else {
                state.idle.append(slot)
            }
        }
        record(update)
        handOff?.resume(returning: Lease(slot: slot, epoch: epoch, isProbe: false))
        if let failure {
            for waiter in failed { waiter.resume(throwing: failure) }
        }
    }

    /// Closes every idle connection and fails every waiter; later round trips fail with
    /// ``RedisClientError/Kind/shutDown``. Lent slots close when they come back.
    func shutdown() {
        let (idle, waiters) = state.withLock { state -> ([PoolSlot], [CheckedContinuation<Lease, any Error>]) in
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
        RedisClientError(.shutDown, "the client of \(endpoint) was shut down")
    }

    private func backingOffError(until retryAt: ContinuousClock.Instant, probing: Bool = false, after error: RedisClientError? = nil) -> RedisClientError {
        if probing {
            return RedisClientError(.backingOff, "\(endpoint) is being tried again by another round trip")
        }
        let left = Deadline(retryAt).millisecondsLeft
        let cause = error.map { " after: \($0.message)" } ?? ""
        return RedisClientError(.backingOff, "\(endpoint) is not tried again for \(left) ms\(cause)")
    }
}
