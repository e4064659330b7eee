/// Why a Redis round trip failed at the connection level. ``RedisClient`` throws it as the
/// ``/WebImageCore/WebImageError/underlyingError`` of a `cacheFailure` error.
///
/// Error replies of the server to a command are not errors of this kind: they come back as
/// ``RedisValue/error(_:)``.
public struct RedisClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No connection could be made: refused, unreachable, unknown host, or the connect
        /// timeout passed.
        case connectFailed
        /// The round trip did not finish within the command timeout (or no pooled connection
        /// became free in that time). The connection is closed, since a late reply would
        /// answer the next command.
        case timedOut
        /// The server closed the connection, or the socket broke, mid round trip.
        case connectionClosed
        /// The server sent bytes that are not RESP2, or a reply over the configured size limit.
        case protocolViolation
        /// The server refused AUTH or SELECT when the connection was set up.
        case handshakeRejected
        /// The client is waiting out its reconnect backoff after a failure and did not try.
        case backingOff
        /// The client was shut down.
        case shutDown
    }

    /// The kind of failure.
    public var kind: Kind
    /// What happened, naming the server and the command.
    public var message: String

    /// An error of `kind`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The kind and the message, for logs.
    public var description: String { "\(kind): \(message)" }
}
