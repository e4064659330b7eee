import CMicroHTTPD
import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The open connections of a running ``HTTPServer``: the deadline of the request each owes, and
/// a watch on the sockets of those whose request is being answered. One thread of its own
/// closes the connections past their deadline and reports the clients that hang up.
///
/// Deadlines: a connection owes a complete request (head and body) from when it connects, and
/// again from when its previous request ends (keep-alive); it owes nothing while its request is
/// answered. One that has owed a request for ``HTTPServerConfiguration/requestHeadTimeout`` is
/// closed. libmicrohttpd's own timeout is an idle timeout (every byte received restarts it), so
/// it cannot bound a client that trickles its request.
///
/// Hang-ups: libmicrohttpd does not poll a suspended connection, so while a task answers its
/// request nothing would notice its client leave. ``watchForHangUp(_:onHangUp:)`` adds the
/// connection's socket to one epoll set (``HangUpPoller``: the end of the peer's stream, a
/// reset or an error, never data to read, since a client may pipeline its next request); the
/// thread waits on that set between sweeps and calls the watch's closure once when the client
/// hangs up. A watch ends when it is reported, with ``stopWatching(_:)``, or when the connection
/// closes.
///
/// Closing: libmicrohttpd 0.9.75 has no call that closes a connection from another thread, so
/// a late connection's socket is shut down (`shutdown(2)`, the descriptor stays open): the
/// connection's thread then reads the end of the stream and closes it as it closes a
/// connection its client left. The shutdown, like every change to the epoll set, is made under
/// this object's lock while the connection is listed, and libmicrohttpd reports a connection
/// closed (``closed(_:)``, which takes the lock and ends its watch) before it closes its
/// descriptor, so the descriptor shut down or watched is always the connection's own, never a
/// reused number. A watch is known by a serial token, never by the connection's address (which
/// a later connection may reuse), so a report read before a watch ended finds nothing.
///
/// Lock order: this object's lock is taken alone (libmicrohttpd calls the connection callbacks
/// without holding its mutexes, and `shutdown(2)` and `epoll_ctl(2)` take none); the closure of
/// a watch is called after the lock is released.
final class OpenConnections: Sendable {
    /// A connection, by the address of libmicrohttpd's connection structure.
    typealias Key = UInt
    /// A watch on a connection's socket, by a serial number (never 0).
    typealias WatchToken = UInt64

    private struct Connection {
        let descriptor: Int32
        /// Since when it owes a complete request; `nil` while a request is answered.
        var owesRequestSince: ContinuousClock.Instant?
        /// The watch on its socket, while its request is answered by a task.
        var watch: WatchToken?
    }

    private struct Watch {
        let key: Key
        let descriptor: Int32
        let onHangUp: @Sendable () -> Void
    }

    private struct State {
        var connections: [Key: Connection] = [:]
        var watches: [WatchToken: Watch] = [:]
        var nextWatch: WatchToken = 1
        /// Late connections are no longer closed, nor hang-ups reported (the server is stopping).
        var stopped = false
        /// Tasks waiting for a connection to close (``waitUntilOpen(atMost:)``).
        var closeWaiters = WaiterTable<Bool, Never>()
    }

    /// How long a connection may owe a request; `nil` for no deadline.
    let deadline: Duration?
    private let state = Locked(State())
    /// The epoll set of the watched sockets; `nil` when the system gave none (then no hang-up
    /// is noticed, and the thread sleeps between sweeps on it alone).
    private let poller: HangUpPoller?

    init(deadline: Duration?) {
        self.deadline = deadline.flatMap { $0 > .zero ? $0 : nil }
        poller = HangUpPoller()
    }

    /// How often the thread looks for late connections: a quarter of the deadline, at most a
    /// second, at least 10 ms. A late connection is closed at most this long after its deadline.
    var sweepInterval: Duration {
        guard let deadline else { return .seconds(1) }
        return min(max(deadline / 4, .milliseconds(10)), .seconds(1))
    }

    // MARK: - libmicrohttpd's callbacks (on its threads)

    /// A connection was accepted: it owes its first request from now.
    func opened(_ key: Key, descriptor: Int32) {
        let now = ContinuousClock.now
        state.withLock { $0.connections[key] = Connection(descriptor: descriptor, owesRequestSince: now) }
    }

    /// A complete request arrived on the connection: it owes nothing while it is answered.
    func requestArrived(_ key: Key) {
        state.withLock { $0.connections[key]?.owesRequestSince = nil }
    }

    /// The connection's request ended (answered, or dropped): it owes the next one from now.
    func requestEnded(_ key: Key) {
        let now = ContinuousClock.now
        state.withLock { $0.connections[key]?.owesRequestSince = now }
    }

    /// The connection closed (libmicrohttpd closes its descriptor after this returns): its
    /// watch ends.
    func closed(_ key: Key) {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            if let connection = state.connections.removeValue(forKey: key), let token = connection.watch {
                endWatch(token, in: &state)
            }
            return state.closeWaiters.removeAll()
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    // MARK: - Hang-ups

    /// Watches the socket of the connection `key` (its request suspended while a task answers
    /// it) and calls `onHangUp` once, on the thread of this object, when its client hangs up.
    /// A watch the connection still had (a request answered, not yet told) is replaced.
    /// - Returns: The watch, for ``stopWatching(_:)``; `nil` when the connection is not listed,
    ///   the server is stopping, or the socket cannot be watched.
    func watchForHangUp(_ key: Key, onHangUp: @escaping @Sendable () -> Void) -> WatchToken? {
        guard let poller else { return nil }
        return state.withLock { state -> WatchToken? in
            guard !state.stopped, let connection = state.connections[key] else { return nil }
            if let old = connection.watch { endWatch(old, in: &state) }
            let token = state.nextWatch
            state.nextWatch += 1
            guard poller.watch(connection.descriptor, token: token) else { return nil }
            state.watches[token] = Watch(key: key, descriptor: connection.descriptor, onHangUp: onHangUp)
            state.connections[key]?.watch = token
            return token
        }
    }

    /// Ends a watch (its closure is not called from now on); nothing when it ended already.
    func stopWatching(_ token: WatchToken) {
        state.withLock { endWatch(token, in: &$0) }
    }

    /// The number of watches now. For tests.
    var watchCount: Int {
        state.withLock { $0.watches.count }
    }

    /// Removes the watch `token` and its socket from the epoll set, under the lock.
    private func endWatch(_ token: WatchToken, in state: inout State) {
        guard let watch = state.watches.removeValue(forKey: token) else { return }
        poller?.unwatch(watch.descriptor)
        if state.connections[watch.key]?.watch == token { state.connections[watch.key]?.watch = nil }
    }

    /// Ends the watches `tokens` reported and calls their closures; `false` once stopped.
    @discardableResult
    func reportHangUps(_ tokens: [WatchToken]) -> Bool {
        let (stopped, callbacks) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            guard !state.stopped else { return (true, []) }
            let callbacks = tokens.compactMap { state.watches[$0]?.onHangUp }
            for token in tokens { endWatch(token, in: &state) }
            return (false, callbacks)
        }
        for callback in callbacks { callback() }
        return !stopped
    }

    // MARK: - Observing

    /// The number of connections open now.
    var count: Int {
        state.withLock { $0.connections.count }
    }

    /// Returns once at most `limit` connections are open (at once when they are), or when the
    /// task is cancelled.
    func waitUntilOpen(atMost limit: Int) async {
        while true {
            let done = await state.wait(in: \.closeWaiters, ifCancelled: true) { state, _ in
                state.connections.count <= limit ? true : nil
            }
            if done { return }
        }
    }

    // MARK: - The thread

    /// Starts the thread that reports hang-ups and closes late connections.
    func start() {
        let interval = deadline.map { _ in sweepInterval }
        let thread = Thread { [self] in run(sweepingEvery: interval) }
        thread.name = "webimage-http-connections"
        thread.start()
    }

    /// Closes no connection and reports no hang-up from now on, and ends the thread. Called
    /// before the daemon stops.
    func stop() {
        state.withLock { $0.stopped = true }
        poller?.wake()
    }

    private var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    /// The thread: waits on the epoll set until a client hangs up or the next sweep is due.
    private func run(sweepingEvery interval: Duration?) {
        let clock = ContinuousClock()
        var nextSweep = interval.map { clock.now + $0 }
        while let poller {
            guard let reported = poller.wait(timeout: nextSweep.map { max(.zero, $0 - clock.now) }) else { break }
            if reported.woken || !reportHangUps(reported.hangUps) { return }
            if let interval, let due = nextSweep, clock.now >= due {
                guard closeLateConnections(now: clock.now) else { return }
                nextSweep = clock.now + interval
            }
        }
        // No epoll set (or a failing one): sweeps only, a second apart at most (stop is seen
        // within that).
        let pause = interval ?? .seconds(1)
        while !isStopped {
            Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
            if interval != nil, !closeLateConnections(now: .now) { return }
        }
    }

    /// Shuts down the socket of every connection that has owed a request for the deadline or
    /// longer at `now`; `false` once stopped.
    @discardableResult
    func closeLateConnections(now: ContinuousClock.Instant) -> Bool {
        guard let deadline else { return !isStopped }
        return state.withLock { state in
            guard !state.stopped else { return false }
            for (key, connection) in state.connections {
                guard let since = connection.owesRequestSince, now - since >= deadline else { continue }
                // Once: the connection owes nothing more while its thread closes it.
                state.connections[key]?.owesRequestSince = nil
                _ = Glibc.shutdown(connection.descriptor, Int32(SHUT_RDWR))
            }
            return true
        }
    }
}
