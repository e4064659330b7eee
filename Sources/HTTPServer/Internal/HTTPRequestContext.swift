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
/// task or a forced shutdown gets there first. libmicrohttpd then calls the access handler
/// again, which takes the answer with ``nextStep(uploadSize:bodyLimit:)``.
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
        /// Nothing to do (the answer is not there yet, or is already queued).
        case none
    }

    private enum Phase {
        case headers
        case body
        case running(ConnectionHandle)
        case answered(ServerResponse)
        case queued
    }

    private struct State {
        var phase = Phase.headers
        var bodyBytes = 0
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

    /// Stores the answer and resumes the suspended connection; does nothing when the request
    /// is no longer running (a forced shutdown answered it already).
    func finish(with response: ServerResponse) {
        state.withLock { state in
            guard case .running(let connection) = state.phase else { return }
            state.phase = .answered(response)
            // Under the lock, so that a forced shutdown that finds this request answered knows
            // the resume has happened before it stops the daemon.
            MHD_resume_connection(connection.pointer)
        }
    }
}
