import WebImageCore
public import Foundation
import Dispatch
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 for tests, benchmarks and demos: no test touches the
/// internet, and this server never connects anywhere (it only listens on the loopback
/// interface, on an ephemeral port chosen by the kernel).
///
/// Each test starts its own server, registers routes (exact paths, the query is ignored),
/// points a loader at ``url(for:)`` and stops the server at the end:
///
/// ```swift
/// let server = try LoopbackHTTPServer()
/// defer { server.stop() }
/// let gate = AsyncGate()
/// server.route("/slow.wiraw", .delayedHeaders(until: gate, then: .data(imageData)))
/// // ... start a request, then:
/// await server.waitForRequests(to: "/slow.wiraw", count: 1)
/// gate.open()
/// ```
///
/// Routes are scripts of ``Step``s (status line and headers, body bytes, chunks, gates,
/// stalls, closes), so one server covers fixed bytes, delayed headers, slow bodies, chunked
/// encoding, any status, redirect chains, wrong content types, truncated and huge bodies.
/// The server counts, per path, the requests received, the requests in flight now and at most
/// (with HTTP/1.1 and no pipelining, each in-flight request holds one connection), the
/// responses completed and the clients that went away mid-response; tests wait on those counts
/// with ``waitUntil(path:_:reaches:)`` instead of sleeping.
///
/// Thread-safety: every method may be called from any thread. One thread accepts connections,
/// one thread serves each connection (blocking POSIX sockets). Route closures run on those
/// threads, with no lock held.
public final class LoopbackHTTPServer: Sendable {
    /// The port the server listens on (on 127.0.0.1).
    public let port: Int

    private let listener: LoopbackSocket
    private let threads = DispatchGroup()
    private let state = Locked(State())
    /// `state.isStopping`, readable without the lock: every connection checks it before each
    /// request, and sixteen connections taking the lock for it made the lock the server's
    /// hottest spot in the many-small-downloads benchmark.
    private let stopping = Atomic<Bool>(false)
    /// Nanoseconds of thread CPU time the connections spent serving requests.
    private let servingNanoseconds = Atomic<Int64>(0)

    private struct State {
        var routes: [String: Route] = [:]
        var statistics: [String: PathStatistics] = [:]
        var log: [Request] = []
        var connections: [Int32: LoopbackSocket] = [:]
        var watchers = WaiterTable<Void, Never>()
        /// What each waiting watcher waits for, by its id.
        var watched: [UInt64: Watch] = [:]
        var isStopping = false
    }

    /// A counter of a path and the value a watcher waits for it to reach.
    private struct Watch {
        let path: String
        let counter: PathStatistics.Counter
        let value: Int
    }

    /// Starts a server listening on 127.0.0.1 with an ephemeral port.
    /// - Parameter routes: Initial routes by exact path (more can be added with ``route(_:_:)``).
    /// - Throws: A `POSIXError` if the socket cannot be created, bound or listened on.
    public init(routes: [String: Route] = [:]) throws {
        let (listener, port) = try LoopbackSocket.listenOnLoopback()
        self.listener = listener
        self.port = port
        state.withLock { $0.routes = routes }
        threads.enter()
        // The accept thread does not keep the server alive: a server nobody stops is released
        // (a full test run once had hundreds of forgotten servers polling), and then the
        // thread closes the listening socket and ends, within one poll. stop() does not wait
        // for a poll to end: it shuts the listener down, which wakes the thread at once. So
        // the poll can be long; at 50 ms the hundreds of servers of a full test run woke
        // thousands of times a second (over a second of CPU in a run, perf).
        let threads = threads
        let thread = Thread { [weak self] in
            while true {
                guard let server = self else {
                    listener.close()
                    break
                }
                // stop() closes the listener once this thread has left.
                if server.isStopping { break }
                guard let connection = listener.accept(timeoutMilliseconds: 250) else { continue }
                guard server.serve(connection) else {
                    connection.close()
                    continue
                }
            }
            threads.leave()
        }
        thread.name = "LoopbackHTTPServer.accept.\(port)"
        thread.start()
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// The URL of `path` on this server (`path` starts with "/" and may carry a query).
    public func url(for path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Sets (or replaces) the route for the exact `path` (no query). Unrouted paths get 404.
    public func route(_ path: String, _ route: Route) {
        state.withLock { $0.routes[path] = route }
    }

    /// Stops the server: stops accepting, shuts every open connection down (a request held at
    /// a gate or stalled is abandoned), waits until every server thread has ended, then closes
    /// the listening socket. Idempotent. A server nobody stops stops when it is released.
    ///
    /// Descriptors are only shut down under the server's lock, while their owner still holds
    /// them: a descriptor number closed by one server may already belong to another one. The
    /// listener is shut down too (only by the first call: it closes it), which wakes the
    /// accept thread out of its poll at once: tests call this in a `defer` on a thread of the
    /// cooperative pool, and waiting out the poll (50 ms then, for each of hundreds of tests)
    /// held pool threads that every other test waited for.
    public func stop() {
        let first = state.withLock { state -> Bool in
            guard !state.isStopping else { return false }
            state.isStopping = true
            stopping.store(true, ordering: .releasing)
            for connection in state.connections.values { connection.shutdown() }
            listener.shutdown()
            return true
        }
        threads.wait()  // blocking: the threads end within milliseconds of the shutdowns (the accept thread at once, gates poll every 10 ms)
        if first { listener.close() }
    }

    // MARK: Statistics

    /// The counts for `path` so far.
    public func statistics(for path: String) -> PathStatistics {
        state.withLock { $0.statistics[path] } ?? PathStatistics()
    }

    /// Every request received so far, in arrival order.
    public var requests: [Request] {
        state.withLock { $0.log }
    }

    /// The number of requests received so far on every path.
    public var totalRequestCount: Int {
        state.withLock { $0.log.count }
    }

    /// The CPU time the server's connection threads have spent so far reading requests and
    /// sending responses (each thread's own CPU clock, so time blocked waiting for a client
    /// does not count). A benchmark with the server in its own process subtracts it from the
    /// process's CPU time to get the client's.
    public var servingCPUTime: Duration {
        .nanoseconds(servingNanoseconds.load(ordering: .relaxed))
    }

    /// Adds CPU time spent serving (called by the connection threads).
    func addServingCPUTime(nanoseconds: Int64) {
        servingNanoseconds.add(nanoseconds, ordering: .relaxed)
    }

    /// Suspends until `counter` of `path` has reached at least `value` (at once if it has), or
    /// until the calling task is cancelled (a test past its time limit fails instead of hanging).
    public func waitUntil(path: String, _ counter: PathStatistics.Counter, reaches value: Int) async {
        await state.wait(in: \.watchers, ifCancelled: (), until: { state, id in
            if (state.statistics[path] ?? PathStatistics())[counter] >= value { return () }
            // A watch left by a cancelled watcher is dropped when its value is reached.
            state.watched[id] = Watch(path: path, counter: counter, value: value)
            return nil
        })
    }

    /// Suspends until `path` has received at least `count` requests.
    public func waitForRequests(to path: String, count: Int = 1) async {
        await waitUntil(path: path, .requests, reaches: count)
    }

    /// Suspends until at least `count` clients went away in the middle of a response on `path`.
    public func waitForClientDisconnects(on path: String, count: Int = 1) async {
        await waitUntil(path: path, .clientDisconnects, reaches: count)
    }

    // MARK: Serving

    private var isStopping: Bool {
        stopping.load(ordering: .acquiring)
    }

    /// Starts a thread serving `connection`; `false` (the caller closes it) once stopping.
    private func serve(_ connection: LoopbackSocket) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.isStopping else { return false }
            state.connections[connection.fd] = connection
            return true
        }
        guard accepted else { return false }
        threads.enter()
        let thread = Thread { [self] in
            LoopbackConnection(socket: connection, server: self).serve()
            // Closed under the lock, so that stop() never shuts down a reused number.
            state.withLock { state in
                state.connections[connection.fd] = nil
                connection.close()
            }
            threads.leave()
        }
        thread.name = "LoopbackHTTPServer.connection.\(connection.fd)"
        thread.start()
        return true
    }

    /// Whether the server is stopping (polled by connections that wait).
    var shouldStop: Bool { isStopping }

    /// Records an arriving request and returns its route (the 404 route if none).
    func begin(method: String, target: String, path: String, headers: [(name: String, value: String)], body: Data) -> (Request, Route) {
        let (request, route, ready) = state.withLock { state -> (Request, Route, [CheckedContinuation<Void, Never>]) in
            let request = Request(method: method, target: target, path: path, headers: headers, body: body, sequenceNumber: state.log.count)
            state.log.append(request)
            var statistics = state.statistics[path] ?? PathStatistics()
            statistics.requestCount += 1
            statistics.activeCount += 1
            statistics.maxActiveCount = max(statistics.maxActiveCount, statistics.activeCount)
            state.statistics[path] = statistics
            return (request, state.routes[path] ?? .notFound, Self.takeReadyWatchers(&state, path: path))
        }
        for continuation in ready { continuation.resume() }
        return (request, route)
    }

    /// Records the end of a response on `path`.
    func end(path: String, clientWentAway: Bool) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            var statistics = state.statistics[path] ?? PathStatistics()
            statistics.activeCount -= 1
            if clientWentAway {
                statistics.clientDisconnectCount += 1
            } else {
                statistics.completedCount += 1
            }
            state.statistics[path] = statistics
            return Self.takeReadyWatchers(&state, path: path)
        }
        for continuation in ready { continuation.resume() }
    }

    private static func takeReadyWatchers(_ state: inout State, path: String) -> [CheckedContinuation<Void, Never>] {
        let statistics = state.statistics[path] ?? PathStatistics()
        let reached = state.watched.filter { $0.value.path == path && statistics[$0.value.counter] >= $0.value.value }.map(\.key)
        for id in reached { state.watched[id] = nil }
        return state.watchers.removeAll { reached.contains($0) }
    }
}
