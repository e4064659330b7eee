import Dispatch
import Foundation
import WebImageCore

/// Listens for failovers: a connection to one Sentinel at a time, subscribed to
/// `+switch-master`, on a thread of its own (its reads block; never on the Swift concurrency
/// pool or Dispatch's global queues).
///
/// - A message for the watched master reports ``Event/switched(_:)``.
/// - When the connection cannot be made or breaks, the next Sentinel (in the configured order,
///   round robin) is tried after a short backoff (0.1 s, doubling per failure up to 2 s, reset
///   by a subscription that succeeds). Each subscription after the first reports
///   ``Event/resubscribed``: a `+switch-master` may have been missed meanwhile.
/// - A subscription silent for 5 s is checked with a `PING`; no answer within 5 s more counts
///   as a broken connection.
/// - The thread waits for messages in slices of ``pollInterval``, so ``stop()`` ends it within
///   that time (at once while it backs off; within the connect timeout while it connects).
///
/// Thread-safety: ``start(onEvent:)`` and ``stop()`` may be called from any thread; events are
/// reported on the subscriber's thread (keep the handler short).
final class SentinelSubscriber: Sendable {
    /// What the subscriber reports.
    enum Event: Sendable, Equatable {
        /// A Sentinel announced that the watched master moved to this address.
        case switched(RedisEndpoint)
        /// Subscribed again after the connection was lost: ask the Sentinels where the master is.
        case resubscribed
    }

    /// How long one wait for a message lasts before ``stop()`` is checked, in seconds.
    static let pollInterval = 0.1
    /// How long the subscription may be silent before a `PING` checks it, and how long that
    /// `PING` may go unanswered, in seconds, by default.
    static let defaultKeepAliveInterval = 5.0

    private struct State {
        var isStarted = false
        var isStopped = false
    }

    private let sentinels: [RedisEndpoint]
    private let masterName: String
    private let handshake: [RedisCommand]
    private let connectTimeout: Double
    private let parser: RESPParser
    private let keepAliveInterval: Double
    private let state = Locked(State())
    /// Signalled by ``stop()``: ends a backoff wait at once.
    private let wakeUp = DispatchSemaphore(value: 0)

    /// A subscriber that has not started.
    /// - Parameters:
    ///   - sentinels: The Sentinels, tried in this order.
    ///   - masterName: The master whose `+switch-master` messages count.
    ///   - handshake: Sent on each new connection before `SUBSCRIBE` (AUTH, or nothing).
    ///   - connectTimeout: The longest a connect plus the handshake and the subscription may take.
    ///   - parser: The reply parser (its size limit).
    ///   - keepAliveInterval: How long the subscription may be silent before a `PING` checks
    ///     it, and how long that `PING` may go unanswered, in seconds (default 5).
    init(sentinels: [RedisEndpoint], masterName: String, handshake: [RedisCommand], connectTimeout: Double, parser: RESPParser, keepAliveInterval: Double = defaultKeepAliveInterval) {
        self.sentinels = sentinels
        self.masterName = masterName
        self.handshake = handshake
        self.connectTimeout = connectTimeout
        self.parser = parser
        self.keepAliveInterval = keepAliveInterval
    }

    /// Starts the thread (once; nothing after ``stop()``).
    /// - Parameter onEvent: Called on the subscriber's thread with each event.
    func start(onEvent: @escaping @Sendable (Event) -> Void) {
        let starts = state.withLock { state -> Bool in
            guard !state.isStarted, !state.isStopped, !sentinels.isEmpty else { return false }
            state.isStarted = true
            return true
        }
        guard starts else { return }
        let thread = Thread { [self] in run(onEvent: onEvent) }
        thread.name = "RedisCache.SentinelSubscriber.\(masterName)"
        thread.start()
    }

    /// Ends the subscription and the thread (within ``pollInterval``). Idempotent.
    func stop() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.isStopped = true }
            return state.isStarted && !state.isStopped
        }
        if wasRunning { wakeUp.signal() }
    }

    private var isStopped: Bool {
        state.withLock { $0.isStopped }
    }

    // MARK: On the subscriber's thread

    /// Subscribes to one Sentinel after another until stopped.
    private func run(onEvent: @Sendable (Event) -> Void) {
        var next = 0
        var backoff = 0.1
        var subscribedBefore = false
        while !isStopped {
            let endpoint = sentinels[next % sentinels.count]
            next = (next + 1) % sentinels.count
            if let connection = subscribe(to: endpoint) {
                backoff = 0.1
                let isFirst = !subscribedBefore
                subscribedBefore = true
                if !isStopped {
                    if !isFirst { onEvent(.resubscribed) }
                    listen(on: connection, onEvent: onEvent)
                }
                connection.close()
            }
            if isStopped { break }
            // Dispatch's semaphore wait: a plain sleep that stop() cuts short.
            _ = wakeUp.wait(timeout: .now() + backoff)
            backoff = min(backoff * 2, 2)
        }
    }

    /// A connection to `endpoint` subscribed to `+switch-master`, or `nil` when that fails.
    private func subscribe(to endpoint: RedisEndpoint) -> RedisConnection? {
        let deadline = Deadline.after(seconds: connectTimeout)
        let connection: RedisConnection
        do {
            connection = try RedisConnection.connect(host: endpoint.host, port: endpoint.port, deadline: deadline)
        } catch {
            return nil
        }
        do throws(RedisClientError) {
            let commands = handshake + [.subscribe(SentinelReplies.switchMasterChannel)]
            try connection.send(RESPEncoder.encode(commands), deadline: deadline, what: "SUBSCRIBE")
            let replies = try connection.receive(commands.count, parser: parser, deadline: deadline, what: "SUBSCRIBE")
            guard !replies.dropLast().contains(where: \.isError), let last = replies.last, SentinelReplies.isSubscribed(last) else {
                connection.close()
                return nil
            }
            return connection
        } catch {
            connection.close()
            return nil
        }
    }

    /// Reads messages until the connection breaks, goes silent, or the subscriber is stopped.
    /// A subscription quiet for the keep-alive interval is checked with a `PING` (allowed in
    /// subscriber mode); one unanswered for as long counts as broken: a Sentinel that is
    /// frozen or cut off without a reset is left for the next one.
    private func listen(on connection: RedisConnection, onEvent: @Sendable (Event) -> Void) {
        var lastHeard = ContinuousClock.now
        var pingSentAt: ContinuousClock.Instant?
        while !isStopped {
            do throws(RedisClientError) {
                let message = try connection.receiveIfAny(parser: parser, deadline: Deadline.after(seconds: Self.pollInterval), what: "the +switch-master subscription")
                let now = ContinuousClock.now
                if let message {
                    lastHeard = now
                    pingSentAt = nil
                    if let master = SentinelReplies.switchedMaster(message, masterName: masterName), !isStopped {
                        onEvent(.switched(master))
                    }
                } else if let sent = pingSentAt {
                    if now - sent > .seconds(keepAliveInterval) { return }
                } else if now - lastHeard > .seconds(keepAliveInterval) {
                    try connection.send(RESPEncoder.encode([.ping]), deadline: Deadline.after(seconds: Self.pollInterval), what: "PING")
                    pingSentAt = now
                }
            } catch {
                return
            }
        }
    }
}
