import Foundation

/// One response as read off the wire.
public struct RawHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body (empty for `HEAD`, 304 and 204).
    public var body: [UInt8]

    /// A response from its parts.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field named `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A response that could not be read (closed early, malformed).
public struct RawHTTPError: Error, CustomStringConvertible {
    /// What was wrong.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
