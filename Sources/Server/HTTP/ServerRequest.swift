import Foundation

/// One HTTP request as the image server's handler sees it, independent of the HTTP library that
/// received it (libmicrohttpd in `webimage serve`, or a Vapor or Hummingbird route).
public struct ServerRequest: Sendable {
    /// The method, upper case (`GET`, `HEAD`).
    public var method: String
    /// The path as received, still percent-encoded, without the query (`/unsafe/300x200/a.jpg`).
    public var path: String
    /// The query string without the `?`, or `nil` when the target had none.
    public var query: String?
    /// The header fields in the order received; names as sent (compare them case-insensitively).
    public var headers: [(name: String, value: String)]
    /// The peer's address (`127.0.0.1`), when the HTTP library knows it.
    public var remoteAddress: String?

    /// A request from its parts.
    public init(method: String = "GET", path: String, query: String? = nil, headers: [(name: String, value: String)] = [], remoteAddress: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
    }

    /// The value of the first header field named `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
