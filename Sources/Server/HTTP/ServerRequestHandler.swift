/// Answers HTTP requests: what an HTTP server library calls for each request.
///
/// ``ImageServer`` is the image server's handler; `WebImageHTTPServer`'s `HTTPServer` runs any
/// handler on libmicrohttpd, and a Vapor or Hummingbird application can mount one by converting
/// its request and response types to ``ServerRequest`` and ``ServerResponse``.
public protocol ServerRequestHandler: Sendable {
    /// The response to `request`. Never throws: every failure is a response with its status.
    func respond(to request: ServerRequest) async -> ServerResponse
}
