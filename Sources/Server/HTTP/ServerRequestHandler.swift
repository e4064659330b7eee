/// Answers HTTP requests: what an HTTP server library calls for each request.
///
/// ``ImageServer`` is the image server's handler; `WebImageHTTPServer`'s `HTTPServer` runs any
/// handler on libmicrohttpd, and a Vapor or Hummingbird application can mount one by converting
/// its request and response types to ``ServerRequest`` and ``ServerResponse``.
public protocol ServerRequestHandler: Sendable {
    /// The response to `request`. Never throws: every failure is a response with its status.
    ///
    /// Cancelling the calling task means the client has gone (`HTTPServer` cancels it when the
    /// client hangs up): the handler should stop its work; what it answers then is dropped.
    func respond(to request: ServerRequest) async -> ServerResponse

    /// The response to `request` when it can be given at once, or `nil` to have the request
    /// answered by ``respond(to:)``.
    ///
    /// The fast path for cheap answers (a health check, a result in memory): `HTTPServer` asks
    /// it on its own thread, as soon as a request is complete and before it starts a task, and
    /// sends what it returns without suspending the connection, so such answers never wait for
    /// a free thread of the task pool however busy the other requests keep it. It must
    /// therefore never block: no locks held for long, no disk, no network, no waiting. A
    /// request it answers is not given to ``respond(to:)``; one it returns `nil` for is, with
    /// nothing done yet (the handler keeps no state between the two calls). The default
    /// returns `nil` for every request.
    ///
    /// Thread-safety: called from any thread, concurrently.
    func immediateResponse(to request: ServerRequest) -> ServerResponse?
}

extension ServerRequestHandler {
    /// No immediate answers: every request goes to ``respond(to:)``.
    public func immediateResponse(to request: ServerRequest) -> ServerResponse? {
        nil
    }
}
