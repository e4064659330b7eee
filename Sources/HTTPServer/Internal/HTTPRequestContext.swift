import CMicroHTTPD
import WebImageCore
import WebImageServer

/// A libmicrohttpd connection pointer, passed between the connection's thread and the task that
/// answers it.
///
/// `@unchecked Sendable`: the pointer is only used under the rules of libmicrohttpd (suspend on
/// the connection's thread, resume from any thread exactly once, see ``HTTPRequestContext``).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// One request's state, from the request line (libmicrohttpd's URI callback makes it) to
/// libmicrohttpd's request-completed callback (which releases it).
///
/// The connection is suspended while the handler's task runs; ``finish(with:)`` stores the
/// answer and resumes the connection, under this context's lock and at most once, whether the
/// task, a forced shutdown or the client's hang-up (``abandon()``) gets there first.
/// libmicrohttpd then calls the access handler again, which takes the answer with
/// ``nextStep(uploadSize:bodyLimit:)``, or, for an abandoned request, ends it without one.
final class HTTPRequestContext: Sendable {
    /// What the access handler does on this call.
    enum Step {
        /// The headers have arrived (the first call).
        case headersArrived
        /// A piece of the body arrived and was discarded.
        case bodyDiscarded
        /// The body grew past the limit.
        case bodyTooLarge
        /// The request is complete: run the handler.
        case requestComplete
        /// The handler answered: queue this response.
        case respond(ServerResponse)
        /// The client hung up while the handler ran: end the request without an answer (the
        /// access handler returns `MHD_NO`: libmicrohttpd closes the connection and reports
        /// the request completed).
        case drop
        /// Nothing to do (the answer is not there yet, or is already queued).
        case none
    }

    private enum Phase {
        case headers
        case body
        case running(ConnectionHandle)
        case answered(ServerResponse)
        case queued
        /// The client hung up while the handler ran; its task was cancelled.
        case abandoned
    }

    private struct State {
        var phase = Phase.headers
        var bodyBytes = 0
        /// The task that runs the handler, while it runs (cancelled when the client hangs up).
        var task: Task<Void, Never>?
    }

    /// The request target exactly as received (`/unsafe/a%2Fb.jpg?x=1`).
    let target: String
    private let state = Locked(State())

    init(target: String) {
        self.target = target
    }

    /// The path, still percent-encoded: the target up to the first `?`.
    var path: String {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<mark])
    }

    /// The query without the `?`, or `nil` when the target has none.
    var query: String? {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        return String(target[target.utf8.index(after: mark)...])
    }

    /// Called on every access-handler call: what to do, given the size of the body piece.
    func nextStep(uploadSize: Int, bodyLimit: Int) -> Step {
        state.withLock { state in
            switch state.phase {
            case .headers:
                state.phase = .body
                return .headersArrived
            case .body:
                guard uploadSize > 0 else { return .requestComplete }
                state.bodyBytes += uploadSize
                return state.bodyBytes > bodyLimit ? .bodyTooLarge : .bodyDiscarded
            case .answered(let response):
                state.phase = .queued
                return .respond(response)
            case .abandoned:
                state.phase = .queued
                return .drop
            case .running, .queued:
                return .none
            }
        }
    }

    /// Marks the request as handled by a task, with its connection about to be suspended.
    func markRunning(_ connection: ConnectionHandle) {
        state.withLock { $0.phase = .running(connection) }
    }

    /// Marks the response as queued directly (no task).
    func markQueued() {
        state.withLock { $0.phase = .queued }
    }

    /// Keeps the task that runs the handler, to cancel it when the client hangs up; cancels it
    /// at once when the client has hung up already.
    func attach(_ task: Task<Void, Never>) {
        let abandoned = state.withLock { state -> Bool in
            switch state.phase {
            case .abandoned:
                return true
            case .running:
                state.task = task
                return false
            default:
                return false
            }
        }
        if abandoned { task.cancel() }
    }

    /// Stores the answer and resumes the suspended connection; does nothing when the request
    /// is no longer running (a forced shutdown answered it already, or its client hung up).
    func finish(with response: ServerResponse) {
        state.withLock { state in
            guard case .running(let connection) = state.phase else { return }
            state.phase = .answered(response)
            state.task = nil
            // Under the lock, so that a forced shutdown that finds this request answered knows
            // the resume has happened before it stops the daemon.
            MHD_resume_connection(connection.pointer)
        }
    }

    /// The client hung up while the handler runs: cancels the handler's task (which stops its
    /// work) and resumes the connection, to be closed without an answer. Does nothing when the
    /// request is no longer running (answered already: the answer goes, or fails to go, as
    /// any answer to a client that left).
    /// - Returns: Whether the request was abandoned.
    @discardableResult
    func abandon() -> Bool {
        let (abandoned, task) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            guard case .running(let connection) = state.phase else { return (false, nil) }
            state.phase = .abandoned
            defer { state.task = nil }
            // Under the lock, as in finish(with:): exactly one resume, before any daemon stop.
            MHD_resume_connection(connection.pointer)
            return (true, state.task)
        }
        task?.cancel()
        return abandoned
    }
}
