// CMicroHTTPD: its header includes <sys/socket.h> first, so the whole-module (release) build
// finds SHUT_RDWR through it, not through Glibc.
import CMicroHTTPD
import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The open connections of a running ``HTTPServer``, each with the deadline of the request it
/// owes, and a thread of its own that closes the connections past their deadline.
///
/// A connection owes a complete request (head and body) from when it connects, and again from
/// when its previous request ends (keep-alive); it owes nothing while its request is answered.
/// One that has owed a request for ``HTTPServerConfiguration/requestHeadTimeout`` is closed.
/// libmicrohttpd's own timeout is an idle timeout (every byte received restarts it), so it
/// cannot bound a client that trickles its request.
///
/// Closing: libmicrohttpd 0.9.75 has no call that closes a connection from another thread, so
/// a late connection's socket is shut down (`shutdown(2)`, the descriptor stays open): the
/// connection's thread then reads the end of the stream and closes it as it closes a
/// connection its client left. The shutdown is made under this object's lock while the
/// connection is listed, and libmicrohttpd reports a connection closed (``closed(_:)``, which
/// takes the lock) before it closes its descriptor, so the descriptor shut down is always the
/// connection's own, never a reused number.
///
/// Lock order: this object's lock is taken alone (libmicrohttpd calls the connection callbacks
/// without holding its mutexes, and `shutdown(2)` takes none).
final class OpenConnections: Sendable {
    /// A connection, by the address of libmicrohttpd's connection structure.
    typealias Key = UInt

    private struct Connection {
        let descriptor: Int32
        /// Since when it owes a complete request; `nil` while a request is answered.
        var owesRequestSince: ContinuousClock.Instant?
    }

    private struct State {
        var connections: [Key: Connection] = [:]
        /// Late connections are no longer closed (the server is stopping).
        var stopped = false
        /// Tasks waiting for a connection to close (``waitUntilOpen(atMost:)``).
        var closeWaiters = WaiterTable<Bool, Never>()
    }

    /// How long a connection may owe a request; `nil` for no deadline.
    let deadline: Duration?
    private let state = Locked(State())
    /// The sweeping thread sleeps on it between sweeps; ``stop()`` wakes it.
    private let wake = NSCondition()

    init(deadline: Duration?) {
        self.deadline = deadline.flatMap { $0 > .zero ? $0 : nil }
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

    /// The connection closed (libmicrohttpd closes its descriptor after this returns).
    func closed(_ key: Key) {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.connections[key] = nil
            return state.closeWaiters.removeAll()
        }
        for waiter in waiters { waiter.resume(returning: false) }
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

    // MARK: - Closing late connections

    /// Starts the thread that closes late connections (nothing without a deadline).
    func startClosingLateConnections() {
        guard deadline != nil else { return }
        let interval = sweepInterval
        let thread = Thread { [self] in
            let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
            while true {
                wake.lock()
                if !isStopped { _ = wake.wait(until: Date(timeIntervalSinceNow: seconds)) }
                wake.unlock()
                guard closeLateConnections(now: .now) else { return }
            }
        }
        thread.name = "webimage-http-deadlines"
        thread.start()
    }

    /// Closes no connection from now on and ends the thread. Called before the daemon stops.
    func stop() {
        state.withLock { $0.stopped = true }
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    private var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    /// Shuts down the socket of every connection that has owed a request for the deadline or
    /// longer at `now`; `false` once stopped.
    @discardableResult
    func closeLateConnections(now: ContinuousClock.Instant) -> Bool {
        guard let deadline else { return false }
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
