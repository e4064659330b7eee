import CMicroHTTPD
public import WebImageServer
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An HTTP/1.1 server on libmicrohttpd that answers every request with a
/// ``/WebImageServer/ServerRequestHandler``.
///
/// ```swift
/// let server = HTTPServer(configuration: configuration, handler: imageServer)
/// try server.start()
/// print("listening on port \(server.port)")
/// // ... on SIGTERM:
/// await server.shutdown(gracePeriod: .seconds(30))
/// ```
///
/// libmicrohttpd reads and parses requests on a pool of threads
/// (``HTTPServerConfiguration/threadCount``), each with its own epoll set, and keeps connections
/// alive. For each complete request the handler is first asked for an immediate answer
/// (``/WebImageServer/ServerRequestHandler/immediateResponse(to:)``, on libmicrohttpd's thread:
/// a health check or a result in memory), which is sent at once. Otherwise the connection is
/// suspended, the handler's ``/WebImageServer/ServerRequestHandler/respond(to:)`` runs in a
/// Swift task, and the connection is resumed with its answer, so a slow answer never holds a
/// thread, and cheap answers never wait behind slow ones.
///
/// A client that hangs up while its request is answered cancels the handler's task (the image
/// server stops its load and transform) and its connection is closed without an answer. While
/// a request is answered, its socket is watched (one epoll set and one thread for the whole
/// server) for the end of the client's stream, a reset or an error; data the client sends
/// meanwhile (its next request, pipelined) is not a hang-up and is read after the answer. A
/// client that shuts down only its sending side counts as gone, as in nginx (libmicrohttpd
/// closes a connection whose stream has ended anyway).
/// The handler sees the path exactly as received, percent escapes included (a thumbor
/// signature covers the raw path), and the query string as received. `HEAD` answers carry the
/// handler's headers and the body's `Content-Length`, without the body. Every answer carries
/// `X-Content-Type-Options: nosniff` (unless the handler sets that header itself). Request
/// bodies are read and discarded (see ``HTTPServerConfiguration/requestBodyLimit``).
///
/// What one client can hold: ``HTTPServerConfiguration/connectionsPerClientLimit`` connections,
/// each of which must send a complete request within
/// ``HTTPServerConfiguration/requestHeadTimeout`` (a thread of the server closes the late ones).
/// libmicrohttpd's own answers to malformed requests (400, 413 for a head over its memory
/// limit, 505) are fixed texts it sends without the handler and without `nosniff`.
///
/// Thread-safe. Stopping: ``shutdown(gracePeriod:)`` (graceful), or releasing the server
/// (immediate: every connection is closed, requests still running get no answer).
public final class HTTPServer: Sendable {
    /// Where it listens.
    public let configuration: HTTPServerConfiguration
    /// What answers the requests.
    public let handler: any ServerRequestHandler

    /// A started daemon and what it owns.
    private struct Running: @unchecked Sendable {
        // @unchecked Sendable: the daemon pointer is used by one caller at a time, under the
        // server's lock (quiesce) or by the one stopping task (stop).
        let daemon: OpaquePointer
        let socket: ListeningSocket
        let core: Unmanaged<HTTPServerCore>
    }

    private enum Phase {
        case idle
        case running(Running)
        case stopping(Task<Void, Never>)
        case stopped
    }

    private struct State {
        var phase = Phase.idle
        var accepting = false
        var boundPort: Int?
    }

    private let state = Locked(State())

    /// A server, not yet listening.
    public init(configuration: HTTPServerConfiguration, handler: any ServerRequestHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    deinit {
        let running = state.withLock { state -> Running? in
            guard case .running(let running) = state.phase else { return nil }
            state.phase = .stopped
            if state.accepting { Self.quiesce(running) }
            return running
        }
        if let running { Self.stop(running) }
    }

    /// The port it listens on: the one picked for port 0 once started, else the configured one.
    public var port: Int {
        state.withLock { $0.boundPort } ?? configuration.port
    }

    /// The number of connections open now (0 when not running). For tests and diagnostics.
    package var openConnectionCount: Int {
        state.withLock { state -> OpenConnections? in
            guard case .running(let running) = state.phase else { return nil }
            return running.core.takeUnretainedValue().connections
        }?.count ?? 0
    }

    /// The requests answered so far by the handler's immediate answer (no task), and those
    /// handed to a task; zeros when not running. For tests and diagnostics.
    package var answerCounts: (immediate: Int, inTasks: Int) {
        state.withLock { state -> HTTPServerCore? in
            guard case .running(let running) = state.phase else { return nil }
            return running.core.takeUnretainedValue()
        }?.answerCounts ?? (0, 0)
    }

    /// The number of requests whose socket is watched for the client's hang-up now (those
    /// answered by a task); 0 when not running. For tests.
    package var watchedRequestCount: Int {
        state.withLock { state -> OpenConnections? in
            guard case .running(let running) = state.phase else { return nil }
            return running.core.takeUnretainedValue().connections
        }?.watchCount ?? 0
    }

    /// Returns once at most `limit` connections are open (at once when the server is not
    /// running). libmicrohttpd reports a connection closed just before it releases the
    /// connection's slot of ``HTTPServerConfiguration/connectionsPerClientLimit`` on the same
    /// thread, so with one thread (``HTTPServerConfiguration/threadCount`` 1) the next
    /// connection is accepted after that slot is free. For tests.
    package func waitUntilOpenConnections(atMost limit: Int) async {
        let connections = state.withLock { state -> OpenConnections? in
            guard case .running(let running) = state.phase else { return nil }
            return running.core.takeUnretainedValue().connections
        }
        await connections?.waitUntilOpen(atMost: limit)
    }

    /// Binds the address and starts answering.
    /// - Throws: `WebImageError` (`.invalidArgument`) when the address cannot be bound (the
    ///   port is taken, the host is not an address of this machine), when libmicrohttpd cannot
    ///   start, or when the server was started before.
    public func start() throws {
        try state.withLock { state throws(WebImageError) in
            guard case .idle = state.phase else {
                throw WebImageError(.invalidArgument, "HTTP server on \(configuration.host) port \(configuration.port) was already started")
            }
            let socket = try ListeningSocket.open(host: configuration.host, port: configuration.port, backlog: 1024)
            let core = Unmanaged.passRetained(HTTPServerCore(
                handler: handler,
                requestBodyLimit: max(0, configuration.requestBodyLimit),
                requestDeadline: configuration.requestHeadTimeout
            ))
            // No MHD_USE_TURBO: it only skips work when connections open and close (wrk's
            // keep-alive load showed no difference beyond the noise) and drops the TCP shutdown.
            let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            let timeout = Self.seconds(configuration.connectionTimeout)
            let daemon = webimage_mhd_start_daemon(
                flags,
                socket.descriptor,
                MHDCallbacks.access,
                MHDCallbacks.completed,
                MHDCallbacks.requestLine,
                MHDCallbacks.connection,
                core.toOpaque(),
                UInt32(clamping: max(1, configuration.threadCount)),
                UInt32(clamping: max(1, configuration.connectionLimit)),
                UInt32(clamping: max(0, configuration.connectionsPerClientLimit)),
                timeout,
                0
            )
            guard let daemon else {
                core.release()
                close(socket.descriptor)
                throw WebImageError(.invalidArgument, "libmicrohttpd could not start a server on \(configuration.host) port \(socket.port) with \(configuration.threadCount) threads")
            }
            core.takeUnretainedValue().connections.start()
            state.phase = .running(Running(daemon: daemon, socket: socket, core: core))
            state.accepting = true
            state.boundPort = socket.port
        }
    }

    /// Stops accepting connections at once: a client that connects from now on is refused.
    /// Requests on connections already open are still answered, with `Connection: close`.
    /// Does nothing when not running. ``shutdown(gracePeriod:)`` starts with this.
    public func stopAccepting() {
        state.withLock { state in
            guard case .running(let running) = state.phase, state.accepting else { return }
            state.accepting = false
            Self.quiesce(running)
        }
    }

    /// Stops gracefully: stops accepting connections, lets the requests in flight finish
    /// (their answers carry `Connection: close`) for at most `gracePeriod`, answers the ones
    /// still running then with 503 (given up to five more seconds to leave; the handlers' late
    /// answers are dropped), closes every connection and releases the threads.
    ///
    /// Returns once the server has stopped. Calling it again (or concurrently) is harmless: it
    /// waits for the same stop. A server never started is just marked stopped.
    public func shutdown(gracePeriod: Duration = .seconds(30)) async {
        let task = state.withLock { state -> Task<Void, Never>? in
            switch state.phase {
            case .idle:
                state.phase = .stopped
                return nil
            case .stopped:
                return nil
            case .stopping(let task):
                return task
            case .running(let running):
                if state.accepting {
                    state.accepting = false
                    Self.quiesce(running)
                }
                let task = Task {
                    await Self.drain(running, gracePeriod: gracePeriod)
                    Self.stop(running)
                }
                state.phase = .stopping(task)
                return task
            }
        }
        await task?.value
        state.withLock { state in
            if case .stopping = state.phase { state.phase = .stopped }
        }
    }

    // MARK: - Stopping

    /// Removes the listening socket from libmicrohttpd's threads and shuts it down, so that
    /// new connections are refused (a quiesced socket left open would still complete
    /// handshakes into its backlog). The descriptor is closed after the daemon stops.
    private static func quiesce(_ running: Running) {
        running.core.takeUnretainedValue().beginDraining()
        _ = MHD_quiesce_daemon(running.daemon)
        _ = Glibc.shutdown(running.socket.descriptor, Int32(SHUT_RDWR))
    }

    /// How long the 503 answers of a forced stop get to leave before the connections close.
    static let answerDeadline = Duration.seconds(5)

    /// Waits for the requests in flight for at most `gracePeriod`; then answers what still
    /// runs with 503 and gives those answers ``answerDeadline`` to leave.
    private static func drain(_ running: Running, gracePeriod: Duration) async {
        let core = running.core.takeUnretainedValue()
        if await waitUntilDrained(core, atMost: gracePeriod) { return }
        core.stopHandling()
        _ = await waitUntilDrained(core, atMost: answerDeadline)
    }

    /// Whether the requests in flight finished within `limit`.
    private static func waitUntilDrained(_ core: HTTPServerCore, atMost limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await core.waitUntilDrained()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let drained = await group.next() ?? false
            group.cancelAll()
            return drained
        }
    }

    /// Answers what still runs, stops the daemon (closing every connection), then releases
    /// the socket and the core.
    private static func stop(_ running: Running) {
        // No connection is shut down from now on: the daemon closes them all.
        running.core.takeUnretainedValue().connections.stop()
        running.core.takeUnretainedValue().stopHandling()
        MHD_stop_daemon(running.daemon)
        close(running.socket.descriptor)
        running.core.release()
    }

    private static func seconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, duration > .zero else { return 0 }
        return UInt32(clamping: seconds + (attoseconds > 0 ? 1 : 0))
    }
}
