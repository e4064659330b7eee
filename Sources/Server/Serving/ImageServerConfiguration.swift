public import Foundation

/// Everything ``ImageServer`` can be told: security, sources, limits, caching headers and work.
/// The defaults are safe: signed URLs only, public http(s) sources only, every limit on.
public struct ImageServerConfiguration: Sendable {
    /// The key thumbor URLs are signed with; `nil` with ``allowsUnsigned`` `false` refuses every
    /// image URL.
    public var securityKey: String?
    /// Whether `/unsafe/...` URLs are served (thumbor's `ALLOW_UNSAFE_URL`); `false` by default.
    public var allowsUnsigned: Bool = false
    /// Whether sources on loopback, private, link-local and other non-public addresses are fetched;
    /// `false` by default.
    public var allowsPrivateSources: Bool = false
    /// The directory that plain (scheme-less) sources are read from; `nil` refuses them.
    public var fileRoot: URL?
    /// Hosts (exact, or `*.example.com`) that http(s) sources may come from; empty allows any
    /// public host.
    public var allowedSourceHosts: [String] = []
    /// The largest source body, in bytes.
    public var maximumSourceBytes: Int = 50 * 1024 * 1024
    /// The largest source frame, in pixels.
    public var maximumSourcePixels: Int = 50_000_000
    /// The largest total of pixels over every frame of a source.
    public var maximumTotalSourcePixels: Int = 200_000_000
    /// The most frames a source may have.
    public var maximumSourceFrames: Int = 1000
    /// The largest output side, in pixels.
    public var maximumOutputDimension: Int = 8192
    /// The longest request path accepted, in bytes.
    public var maximumURLLength: Int = 4096
    /// The deadline for one request, from arrival to the response.
    public var requestTimeout: Duration = .seconds(30)
    /// How many transforms run at once (decode, transform, encode).
    public var transformConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    /// How many transforms may wait; beyond that the answer is `503` with `Retry-After`.
    public var maximumQueuedTransforms: Int = 64
    /// `Cache-Control: public, max-age=N` on successful responses, in seconds.
    public var cacheMaxAge: Int = 86_400
    /// The quality when the URL gives none (JPEG, WebP, AVIF).
    public var defaultQuality: Int = 80

    /// The defaults.
    public init() {}
}
