import CMicroHTTPD
import Foundation
import WebImageCore
import WebImageServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What libmicrohttpd's callbacks reach through their closure pointer: the handler, the
/// requests in flight, and the shutdown state.
///
/// Lock order: this object's lock, then a context's lock, then libmicrohttpd's own mutexes
/// (suspend and resume take them); nothing takes them the other way round, and libmicrohttpd
/// calls the request-completed callback without holding its mutex.
final class HTTPServerCore: Sendable {
    let handler: any ServerRequestHandler
    let requestBodyLimit: Int
    /// The open connections and the deadline of the request each owes.
    let connections: OpenConnections

    private struct State {
        /// Requests between their request line and their completion.
        var inFlight = 0
        /// Requests whose connection is suspended while a task answers them.
        var running: [ObjectIdentifier: HTTPRequestContext] = [:]
        /// Shutting down gracefully: answers carry `Connection: close`.
        var draining = false
        /// About to stop the daemon: no more connections may be suspended.
        var stopping = false
        var drainWaiters = WaiterTable<Void, Never>()
        /// Requests answered by the handler's `immediateResponse(to:)`, without a task.
        var immediateAnswers = 0
        /// Requests handed to a task (the handler's `respond(to:)`).
        var taskAnswers = 0
    }

    private let state = Locked(State())

    init(handler: any ServerRequestHandler, requestBodyLimit: Int, requestDeadline: Duration?) {
        self.handler = handler
        self.requestBodyLimit = requestBodyLimit
        self.connections = OpenConnections(deadline: requestDeadline)
    }

    // MARK: - Callbacks (on libmicrohttpd's threads)

    /// A request line arrived: its context, counted in flight.
    func requestStarted(target: String) -> HTTPRequestContext {
        state.withLock { $0.inFlight += 1 }
        return HTTPRequestContext(target: target)
    }

    /// A request ended (answered, failed or dropped).
    func requestCompleted(_ context: HTTPRequestContext) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.inFlight -= 1
            state.running[ObjectIdentifier(context)] = nil
            guard state.inFlight == 0, !state.drainWaiters.isEmpty else { return [] }
            return state.drainWaiters.removeAll()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// One call of libmicrohttpd's access handler.
    func access(
        connection: OpaquePointer,
        method: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let context: HTTPRequestContext
        if let raw = slot.pointee {
            context = Unmanaged<HTTPRequestContext>.fromOpaque(raw).takeUnretainedValue()
        } else {
            // libmicrohttpd calls the URI callback before the handler, so this does not
            // happen; should it, the request still gets a context (released on completion).
            context = requestStarted(target: "")
            slot.pointee = Unmanaged.passRetained(context).toOpaque()
        }
        switch context.nextStep(uploadSize: uploadSize.pointee, bodyLimit: requestBodyLimit) {
        case .headersArrived:
            if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
               let length = Int(String(cString: declared)), length > requestBodyLimit {
                connections.requestArrived(UInt(bitPattern: connection))
                context.markQueued()
                let response = ServerResponse(
                    status: 413,
                    headers: [("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")],
                    body: Data("request body of \(length) bytes is over the limit of \(requestBodyLimit) bytes\n".utf8)
                )
                return queue(response, on: connection)
            }
            return .YES
        case .bodyDiscarded:
            uploadSize.pointee = 0
            return .YES
        case .bodyTooLarge:
            return .NO
        case .requestComplete:
            let key = UInt(bitPattern: connection)
            connections.requestArrived(key)
            let request = makeRequest(connection: connection, method: method, context: context)
            // The cheap answers (a health check, a cached result) go out from this thread, with
            // no task and no suspension: they never wait behind the handler's other work.
            if let response = handler.immediateResponse(to: request) {
                state.withLock { $0.immediateAnswers += 1 }
                context.markQueued()
                return queue(response, on: connection)
            }
            let handle = ConnectionHandle(pointer: connection)
            let accepted = state.withLock { state -> Bool in
                guard !state.stopping else { return false }
                state.running[ObjectIdentifier(context)] = context
                state.taskAnswers += 1
                context.markRunning(handle)
                MHD_suspend_connection(connection)
                return true
            }
            guard accepted else {
                context.markQueued()
                return queue(Self.shuttingDown, on: connection)
            }
            // Watched from now until answered: a client that hangs up meanwhile cancels the
            // task (which stops the handler's work) and its connection is closed unanswered.
            let watch = connections.watchForHangUp(key) { context.abandon() }
            let handler = handler, connections = connections
            let task = Task {
                let response = await handler.respond(to: request)
                // Before the resume: once resumed, the connection may be suspended again for
                // its next request (and watched anew).
                if let watch { connections.stopWatching(watch) }
                context.finish(with: response)
            }
            context.attach(task)
            return .YES
        case .respond(let response):
            return queue(response, on: connection)
        case .drop:
            // The client hung up: no answer. libmicrohttpd closes the connection and calls the
            // request-completed callback, which releases the context.
            return .NO
        case .none:
            return .YES
        }
    }

    /// The requests answered so far without a task, and those handed to one.
    var answerCounts: (immediate: Int, inTasks: Int) {
        state.withLock { ($0.immediateAnswers, $0.taskAnswers) }
    }

    // MARK: - Shutdown

    /// Answers from now on carry `Connection: close`.
    func beginDraining() {
        state.withLock { $0.draining = true }
    }

    /// Returns when no request is in flight, or when the task is cancelled.
    func waitUntilDrained() async {
        await state.wait(in: \.drainWaiters, ifCancelled: ()) { state, _ in state.inFlight == 0 ? () : nil }
    }

    /// No connection is suspended from now on; answers every request still running with 503
    /// and resumes its connection, so that the daemon can be stopped.
    func stopHandling() {
        let running = state.withLock { state -> [HTTPRequestContext] in
            state.stopping = true
            state.draining = true
            return Array(state.running.values)
        }
        for context in running {
            context.finish(with: Self.shuttingDown)
        }
    }

    // MARK: - Helpers

    /// The header every answer carries (`nosniff` unless the handler set it).
    private static let contentTypeOptions = "X-Content-Type-Options"

    private static let shuttingDown = ServerResponse(
        status: 503,
        headers: [("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close"), ("Retry-After", "1")],
        body: Data("server shutting down\n".utf8)
    )

    private func makeRequest(connection: OpaquePointer, method: UnsafePointer<CChar>?, context: HTTPRequestContext) -> ServerRequest {
        var headers: [(name: String, value: String)] = []
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, { cls, _, key, value in
                guard let cls, let key else { return .YES }
                let headers = cls.assumingMemoryBound(to: [(name: String, value: String)].self)
                headers.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                return .YES
            }, pointer)
        }
        return ServerRequest(
            method: method.map { String(cString: $0) } ?? "GET",
            path: context.path,
            query: context.query,
            headers: headers,
            remoteAddress: Self.remoteAddress(of: connection)
        )
    }

    private static func remoteAddress(of connection: OpaquePointer) -> String? {
        guard let address = webimage_mhd_client_address(connection) else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                var raw = pointer.pointee.sin_addr
                guard inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil else { return nil }
                return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var raw = pointer.pointee.sin6_addr
                guard inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil else { return nil }
                let result = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                // An IPv4 client of a dual-stack socket: report 127.0.0.1, not ::ffff:127.0.0.1.
                return result.hasPrefix("::ffff:") && result.contains(".") ? String(result.dropFirst(7)) : result
            }
        default:
            return nil
        }
    }

    /// Queues `response` on the connection. libmicrohttpd copies the body (MUST_COPY): `Data`
    /// lends its bytes only for the length of a closure, so handing them over without a copy
    /// would rely on its storage staying put. The copy costs nothing measurable at 100 bytes
    /// and a fifth of the server's CPU at 8 MB bodies (perf, 420 answers a second, 3.3 GB/s;
    /// the kernel's copy into the socket is twice that).
    private func queue(_ response: ServerResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        var setsSniffing = false
        for header in response.headers {
            // libmicrohttpd sets Content-Length itself and refuses values with CR or LF.
            _ = MHD_add_response_header(mhdResponse, header.name, header.value)
            if header.name.caseInsensitiveCompare(Self.contentTypeOptions) == .orderedSame { setsSniffing = true }
        }
        if !setsSniffing {
            // Browsers must take the Content-Type as sent: an error body or an image is never
            // read as HTML or script. A handler's own value is kept, never doubled.
            _ = MHD_add_response_header(mhdResponse, Self.contentTypeOptions, "nosniff")
        }
        if state.withLock({ $0.draining }) {
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        let status = (100...999).contains(response.status) ? response.status : 500
        return MHD_queue_response(connection, UInt32(status), mhdResponse)
    }
}
