import Foundation

/// Where and how ``HTTPServer`` listens.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind (`0.0.0.0`, `127.0.0.1`, `::`, `::1`). `::` accepts IPv4 clients too
    /// (a dual-stack socket).
    public var host: String = "0.0.0.0"
    /// The TCP port; 0 picks a free one (read it back from ``HTTPServer/port``). 8888 by
    /// default, as thumbor.
    public var port: Int = 8888
    /// Threads answering connections (libmicrohttpd's thread pool, each thread with its own
    /// epoll set). The handler's work runs in Swift tasks, not on these threads.
    public var threadCount: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// The most connections open at once; libmicrohttpd splits it evenly over the threads. A
    /// thread at its share stops accepting: new connections wait in the listen backlog (1024)
    /// until one of its connections closes.
    public var connectionLimit: Int = 1024
    /// How long an idle connection stays open (whole seconds, rounded up; zero keeps idle
    /// connections open forever). A request whose handler is still working is never timed out.
    public var connectionTimeout: Duration = .seconds(30)
    /// The largest request body accepted (and discarded: handlers see no body). A request that
    /// declares a larger `Content-Length` is answered 413 without reading the body; a chunked
    /// body that grows past it closes the connection.
    public var requestBodyLimit: Int = 1 << 20

    /// The defaults (all interfaces, port 8888 as thumbor).
    public init() {}
}
