import Foundation

/// Where one Redis server (or Sentinel) listens: a host name or address and a TCP port.
///
/// ```swift
/// let seeds = try ["10.0.0.5:7000", "10.0.0.6:7000"].map { try RedisEndpoint(parsing: $0) }
/// ```
public struct RedisEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address (IPv4 or IPv6, without brackets), resolved with `getaddrinfo`
    /// on each new connection.
    public var host: String
    /// The TCP port.
    public var port: Int

    /// An endpoint as given.
    /// - Parameters:
    ///   - host: The host name or address (an IPv6 address without brackets).
    ///   - port: The TCP port (default 6379).
    public init(host: String, port: Int = 6379) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`, `[IPv6]:port`, or a bare `host` (`defaultPort` then).
    /// - Parameters:
    ///   - text: The address as an operator writes it.
    ///   - defaultPort: The port when `text` names none (default 6379; Sentinels usually 26379).
    /// - Throws: ``RedisClientError`` (``RedisClientError/Kind/connectFailed``) naming `text` when
    ///   it has no host, or a port that is not a number in 1...65535.
    public init(parsing text: String, defaultPort: Int = 6379) throws(RedisClientError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var host = trimmed
        var portText: Substring?
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else {
                throw RedisClientError(.connectFailed, "'\(text)' is not host:port: the IPv6 address has no closing ']'")
            }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            let rest = trimmed[trimmed.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw RedisClientError(.connectFailed, "'\(text)' is not [IPv6]:port") }
                portText = rest.dropFirst()
            }
        } else if let colon = trimmed.lastIndex(of: ":"), trimmed.firstIndex(of: ":") == colon {
            host = String(trimmed[..<colon])
            portText = trimmed[trimmed.index(after: colon)...]
        }
        guard !host.isEmpty else { throw RedisClientError(.connectFailed, "'\(text)' names no host") }
        var port = defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw RedisClientError(.connectFailed, "'\(text)': the port must be a number in 1...65535")
            }
            port = value
        }
        self.init(host: host, port: port)
    }

    /// `host:port`, an IPv6 address in brackets (`[::1]:6379`).
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
