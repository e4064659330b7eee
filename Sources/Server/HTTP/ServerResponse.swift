public import Foundation

/// One HTTP response from the image server's handler: a status, header fields and a body.
public struct ServerResponse: Sendable {
    /// The status code (200, 304, 400, ...).
    public var status: Int
    /// The header fields, in order. `Content-Length` is the HTTP library's to set.
    public var headers: [(name: String, value: String)]
    /// The body (empty for 304 and for `HEAD`, which the HTTP library handles).
    public var body: Data

    /// A response from its parts.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field named `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
