import Foundation
import RedisCache

/// `--redis URL`: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DATABASE]` as a
/// ``/RedisCache/RedisClient/Configuration``.
///
/// The port defaults to 6379 and the database to 0; the user and password are percent-decoded;
/// an IPv6 host goes in brackets (`redis://[::1]:6379`). `rediss://` (TLS) is refused: the
/// RedisCache plug-in speaks plain TCP, so reach a remote Redis through a private network or a
/// TLS tunnel. Timeouts are the plug-in's defaults (1 s per command): a Redis outage costs at
/// most that per request, and then nothing while the client backs off.
enum ServeRedisURL {
    /// The client configuration `url` names.
    /// - Throws: ``CLIError`` (usage) saying what is wrong with `url`.
    static func configuration(_ url: String, command: String) throws(CLIError) -> RedisClient.Configuration {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw .usage("\(command): --redis needs a URL such as redis://127.0.0.1:6379, not '\(url)'")
        }
        guard scheme == "redis" else {
            throw .usage("\(command): --redis \(url): only redis:// URLs are supported (no TLS: use a private network or a tunnel)")
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .usage("\(command): --redis \(url) names no host") }
        var configuration = RedisClient.Configuration(host: host)
        if let port = components.port {
            guard (1...65535).contains(port) else { throw .usage("\(command): --redis \(url): port \(port) is out of range") }
            configuration.port = port
        }
        if let user = components.percentEncodedUser, !user.isEmpty {
            configuration.username = user.removingPercentEncoding ?? user
        }
        if let password = components.percentEncodedPassword {
            configuration.password = password.removingPercentEncoding ?? password
        }
        let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        if !path.isEmpty {
            guard let database = Int(path), database >= 0 else {
                throw .usage("\(command): --redis \(url): the path must be a database number (/0), not '/\(path)'")
            }
            configuration.database = database
        }
        guard components.query == nil, components.fragment == nil else {
            throw .usage("\(command): --redis \(url): no query or fragment is understood")
        }
        return configuration
    }
}
