public import WebImageServer

/// An HTTP/1.1 server on libmicrohttpd that answers every request with a
/// ``/WebImageServer/ServerRequestHandler``.
public final class HTTPServer: Sendable {
    /// Where it listens.
    public let configuration: HTTPServerConfiguration
    /// What answers the requests.
    public let handler: any ServerRequestHandler

    /// A server, not yet listening.
    public init(configuration: HTTPServerConfiguration, handler: any ServerRequestHandler) {
        self.configuration = configuration
        self.handler = handler
    }
}
