import WebImageServer
import WebImageCore

/// A handler that answers with a closure and records the requests it saw.
final class ClosureHandler: ServerRequestHandler {
    private let answer: @Sendable (ServerRequest) async -> ServerResponse
    private let seen = Locked([ServerRequest]())

    init(_ answer: @escaping @Sendable (ServerRequest) async -> ServerResponse) {
        self.answer = answer
    }

    func respond(to request: ServerRequest) async -> ServerResponse {
        seen.withLock { $0.append(request) }
        return await answer(request)
    }

    /// The requests seen so far, in order of arrival.
    var requests: [ServerRequest] {
        seen.withLock { $0 }
    }
}
