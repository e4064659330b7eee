import Foundation
public import WebImageCore

/// The image server's request handler: thumbor-style URLs in, transformed images out, with the
/// framework's caches, downloader and coders underneath.
///
/// It answers `GET /healthcheck`, `/health`, `/metrics` and image URLs; it does not depend on an
/// HTTP library (`webimage serve` runs it on libmicrohttpd through `WebImageHTTPServer`).
public final class ImageServer: ServerRequestHandler {
    /// The configuration it was made with.
    public let configuration: ImageServerConfiguration
    /// The manager that fetches, decodes and caches originals.
    public let manager: ImageManager
    /// Where encoded results are kept (keyed by the request and the negotiated format), or `nil`.
    public let resultCache: (any ImageCache)?

    /// A server on `manager` (originals) and `resultCache` (encoded results).
    public init(configuration: ImageServerConfiguration, manager: ImageManager, resultCache: (any ImageCache)?) {
        self.configuration = configuration
        self.manager = manager
        self.resultCache = resultCache
    }

    /// Answers one request.
    public func respond(to request: ServerRequest) async -> ServerResponse {
        // Skeleton: the pipeline is being written (issue 22).
        ServerResponse(status: 501, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data("not implemented\n".utf8))
    }
}
