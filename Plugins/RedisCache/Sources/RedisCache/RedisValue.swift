public import Foundation

/// One RESP2 reply from a Redis server.
///
/// Error replies (`-ERR ...`) are values, not thrown errors: a command the server refuses does
/// not break the connection, so the caller decides what it means. ``RedisClient`` throws only
/// for connection-level failures (see ``RedisClientError``).
public enum RedisValue: Sendable, Hashable, CustomStringConvertible {
    /// A simple string (`+OK`).
    case simpleString(String)
    /// An error reply (`-ERR unknown command`): the server's message, prefix included.
    case error(String)
    /// An integer (`:1`).
    case integer(Int)
    /// A bulk string (`$5\r\nhello`): binary-safe bytes.
    case bulkString(Data)
    /// The null bulk string or null array (`$-1`, `*-1`): "no value", as GET answers on a miss.
    case null
    /// An array of replies (`*2\r\n...`), as SCAN answers.
    case array([RedisValue])

    /// The bytes of a bulk or simple string, else `nil`.
    public var data: Data? {
        switch self {
        case .bulkString(let data): data
        case .simpleString(let string): Data(string.utf8)
        default: nil
        }
    }

    /// A bulk or simple string as UTF-8 text (invalid bytes replaced), else `nil`.
    public var string: String? {
        switch self {
        case .bulkString(let data): String(decoding: data, as: UTF8.self)
        case .simpleString(let string): string
        default: nil
        }
    }

    /// The value of an integer reply (or of a bulk string holding decimal digits), else `nil`.
    public var integer: Int? {
        switch self {
        case .integer(let value): value
        case .bulkString(let data): Int(String(decoding: data, as: UTF8.self))
        default: nil
        }
    }

    /// The elements of an array reply, else `nil`.
    public var array: [RedisValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is an error reply.
    public var isError: Bool {
        if case .error = self { return true }
        return false
    }

    /// The reply in RESP notation; bulk strings by size only.
    public var description: String {
        switch self {
        case .simpleString(let string): "+\(string)"
        case .error(let message): "-\(message)"
        case .integer(let value): ":\(value)"
        case .bulkString(let data): "$\(data.count) bytes"
        case .null: "(nil)"
        case .array(let elements): "[\(elements.map(\.description).joined(separator: ", "))]"
        }
    }
}
