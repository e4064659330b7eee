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
    /// epoll set). The handler's work runs in Swift tasks, not on these threads; only its
    /// immediate answers (`immediateResponse(to:)`: a health check, a result in memory) are made
    /// on them.
    public var threadCount: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// The most connections open at once; libmicrohttpd splits it evenly over the threads. A
    /// thread at its share stops accepting: new connections wait in the listen backlog (1024)
    /// until one of its connections closes.
    public var connectionLimit: Int = 1024
    /// The most connections one client address may have open at once (libmicrohttpd's
    /// per-IP connection limit); 0 for no limit. A connection over it is accepted and closed
    /// at once, without an answer. 64 by default: more than a browser or a CDN edge opens
    /// (browsers open 6 per host), so that one address cannot take all of ``connectionLimit``.
    ///
    /// Behind a reverse proxy or a load balancer every connection comes from the proxy's
    /// address: raise it above the proxy's connections to this server, or set 0. An IPv6
    /// client is counted by its full address.
    public var connectionsPerClientLimit: Int = 64
    /// How long an idle connection stays open (whole seconds, rounded up; zero keeps idle
    /// connections open forever). A request whose handler is still working is never timed out.
    public var connectionTimeout: Duration = .seconds(30)
    /// How long a client has to send a complete request: its head (request line and headers)
    /// and, when it has one, its body. The time counts from when the connection was accepted,
    /// and on a kept-alive connection from when the previous request ended; a connection that
    /// is late is closed, without an answer. 10 s by default; zero for no deadline.
    ///
    /// ``connectionTimeout`` is an idle timeout, which every byte received restarts: without
    /// this deadline a client that sends one byte every few seconds keeps a connection for as
    /// long as it likes. A kept-alive connection that stays idle is closed after this time too
    /// (before ``connectionTimeout`` when it is shorter). Checked four times per deadline (at
    /// most once a second): a late connection is closed at most a quarter of the deadline (at
    /// most a second) after it. The time a handler takes does not count.
    public var requestHeadTimeout: Duration = .seconds(10)
    /// The largest request body accepted (and discarded: handlers see no body). A request that
    /// declares a larger `Content-Length` is answered 413 without reading the body; a chunked
    /// body that grows past it closes the connection.
    public var requestBodyLimit: Int = 1 << 20

    /// The defaults (all interfaces, port 8888 as thumbor).
    public init() {}
}
