public import Foundation

/// One Redis command: its name and arguments as binary-safe bulk strings, sent in RESP2 as an
/// array of bulk strings (the form every Redis command takes).
///
/// The factories cover what ``RedisImageCache`` needs; ``init(_:_:)`` builds any other command.
///
/// ```swift
/// let reply = try await client.send(.set(Data("k".utf8), Data("v".utf8), expiresInMilliseconds: 60_000))
/// ```
public struct RedisCommand: Sendable, Hashable, CustomStringConvertible {
    /// The name followed by the arguments, as sent.
    public var parts: [Data]

    /// A command from its name and arguments.
    /// - Parameters:
    ///   - name: The command's name (`"GET"`); Redis ignores its case.
    ///   - arguments: The arguments, each sent as one bulk string.
    public init(_ name: String, _ arguments: [Data] = []) {
        parts = [Data(name.utf8)] + arguments
    }

    /// A command whose arguments are all text (`RedisCommand("CONFIG", text: "GET", "maxmemory")`).
    public init(_ name: String, text arguments: String...) {
        self.init(name, arguments.map { Data($0.utf8) })
    }

    /// The command's name (its first part), for messages.
    public var name: String {
        parts.first.map { String(decoding: $0, as: UTF8.self).uppercased() } ?? ""
    }

    /// `PING`: answers `+PONG`.
    public static let ping = RedisCommand("PING")

    /// `AUTH password`, or `AUTH username password` (Redis 6 ACL users).
    public static func auth(username: String?, password: String) -> RedisCommand {
        RedisCommand("AUTH", (username.map { [Data($0.utf8)] } ?? []) + [Data(password.utf8)])
    }

    /// `SELECT index`: switches the connection to a logical database.
    public static func select(_ database: Int) -> RedisCommand {
        RedisCommand("SELECT", text: String(database))
    }

    /// `GET key`: the value (bulk string) or null.
    public static func get(_ key: Data) -> RedisCommand {
        RedisCommand("GET", [key])
    }

    /// `SET key value [PX milliseconds]`: stores `value`, expiring after the given time when it
    /// is not `nil`.
    public static func set(_ key: Data, _ value: Data, expiresInMilliseconds: Int? = nil) -> RedisCommand {
        var arguments = [key, value]
        if let milliseconds = expiresInMilliseconds {
            arguments += [Data("PX".utf8), Data(String(milliseconds).utf8)]
        }
        return RedisCommand("SET", arguments)
    }

    /// `DEL key...`: removes keys now; answers how many existed.
    public static func del(_ keys: [Data]) -> RedisCommand {
        RedisCommand("DEL", keys)
    }

    /// `UNLINK key...`: removes keys, freeing their memory in the background (Redis 4+);
    /// answers how many existed.
    public static func unlink(_ keys: [Data]) -> RedisCommand {
        RedisCommand("UNLINK", keys)
    }

    /// `EXISTS key...`: how many of the keys exist.
    public static func exists(_ keys: [Data]) -> RedisCommand {
        RedisCommand("EXISTS", keys)
    }

    /// `SCAN cursor [MATCH pattern] [COUNT count]`: one step of an incremental key walk;
    /// answers the next cursor (`"0"` when done) and a batch of keys.
    public static func scan(cursor: String, match pattern: Data? = nil, count: Int? = nil) -> RedisCommand {
        var arguments = [Data(cursor.utf8)]
        if let pattern { arguments += [Data("MATCH".utf8), pattern] }
        if let count { arguments += [Data("COUNT".utf8), Data(String(count).utf8)] }
        return RedisCommand("SCAN", arguments)
    }

    /// `PTTL key`: the remaining time to live in milliseconds (-1: none, -2: no such key).
    public static func pttl(_ key: Data) -> RedisCommand {
        RedisCommand("PTTL", [key])
    }

    /// The name and the number of arguments (never the arguments: they may hold secrets).
    public var description: String {
        "\(name) (\(parts.count - 1) argument\(parts.count == 2 ? "" : "s"))"
    }
}
