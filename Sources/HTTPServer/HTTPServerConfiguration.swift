public import Foundation

/// Where and how ``HTTPServer`` listens.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind (`0.0.0.0`, `127.0.0.1`, `::`).
    public var host: String = "0.0.0.0"
    /// The TCP port; 0 picks a free one (read it back from ``HTTPServer/port``).
    public var port: Int = 8888
    /// Threads answering connections (libmicrohttpd's thread pool over epoll).
    public var threadCount: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// The most connections open at once.
    public var connectionLimit: Int = 1024
    /// How long an idle connection stays open.
    public var connectionTimeout: Duration = .seconds(30)

    /// The defaults (all interfaces, port 8888 as thumbor).
    public init() {}
}
