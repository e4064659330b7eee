/// What the transport did for one download (SDWebImage's `metrics` of a download token, the
/// part of `URLSessionTaskMetrics` a libcurl transport knows): sent with
/// ``DownloadEvent/collectedMetrics(url:metrics:)`` just before ``DownloadEvent/stopped(url:)``.
public struct DownloadMetrics: Sendable, Equatable {
    /// The HTTP version of the last response, as libcurl negotiated it (`"HTTP/1.0"`,
    /// `"HTTP/1.1"`, `"HTTP/2"`, `"HTTP/3"`), or `nil` if no response arrived.
    public var httpVersion: String?
    /// The connections opened for the download, over every redirect hop: 0 when every hop
    /// reused a connection that was already open (HTTP/1.1 keep-alive, or an HTTP/2 connection
    /// shared with other downloads).
    public var newConnectionCount: Int
    /// The redirects followed.
    public var redirectCount: Int

    /// Metrics with the given values.
    public init(httpVersion: String? = nil, newConnectionCount: Int = 0, redirectCount: Int = 0) {
        self.httpVersion = httpVersion
        self.newConnectionCount = newConnectionCount
        self.redirectCount = redirectCount
    }

    /// Whether the download ran on connections opened before it (none of its own).
    public var reusedConnection: Bool { newConnectionCount == 0 }
}
