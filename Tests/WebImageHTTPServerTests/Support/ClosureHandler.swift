import WebImageServer
import WebImageCore

/// A handler that answers with a closure (and, when given one, immediately with another) and
/// records the requests it saw.
final class ClosureHandler: ServerRequestHandler {
    private let answer: @Sendable (ServerRequest) async -> ServerResponse
    private let immediate: (@Sendable (ServerRequest) -> ServerResponse?)?
    private let seen = Locked([ServerRequest]())

    init(immediate: (@Sendable (ServerRequest) -> ServerResponse?)? = nil, _ answer: @escaping @Sendable (ServerRequest) async -> ServerResponse) {
        self.immediate = immediate
        self.answer = answer
    }

    func respond(to request: ServerRequest) async -> ServerResponse {
        seen.withLock { $0.append(request) }
        return await answer(request)
    }

    func immediateResponse(to request: ServerRequest) -> ServerResponse? {
        guard let response = immediate?(request) else { return nil }
        seen.withLock { $0.append(request) }
        return response
    }

    /// The requests seen so far, in order of arrival.
    var requests: [ServerRequest] {
        seen.withLock { $0 }
    }
}
