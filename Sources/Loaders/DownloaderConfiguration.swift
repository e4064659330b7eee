public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
import WebImageCore

/// The settings of a ``Downloader`` (SDWebImage's `SDWebImageDownloaderConfig`), with
/// SDWebImage's defaults unless a property says otherwise.
///
/// A value type: the downloader copies it at init. ``Downloader/maxConcurrentDownloads``,
/// ``Downloader/isSuspended`` and the HTTP header fields can still be changed on the
/// downloader afterwards.
public struct DownloaderConfiguration: Sendable {
    /// The order in which queued downloads start (SDWebImage's `SDWebImageDownloaderExecutionOrder`).
    public enum ExecutionOrder: Sendable, Equatable {
        /// First in, first out (the default).
        case fifo
        /// Last in, first out: the newest request starts first (a scrolling list wants the
        /// images now on screen before those already scrolled away).
        case lifo
    }

    /// The most downloads that run at once; more wait in a queue (default 6, at least 1).
    public var maxConcurrentDownloads = 6
    /// Seconds without any data after which a download fails with a timeout (default 15).
    ///
    /// It is an idle timeout, as on Apple platforms: a slow download that keeps receiving
    /// data does not time out (see ``totalTimeout`` for that). It is kept to the millisecond
    /// (0.25 is a quarter of a second: the downloader's event loop enforces it, not libcurl's
    /// whole-second low-speed timer), and also bounds connecting. Zero or less means 15.
    public var downloadTimeout: TimeInterval = 15
    /// Seconds after which a download fails with a timeout however it is going, redirects
    /// included (default `nil`: none). A body sent at one byte per second ends here.
    public var totalTimeout: TimeInterval?
    /// The smallest change of the downloaded fraction (0...1) between two progress events of
    /// one download (default 0: every chunk). The first and the last event are always sent;
    /// with an unknown expected size every chunk is reported.
    public var minimumProgressInterval: Double = 0
    /// The order in which queued downloads start (default ``ExecutionOrder/fifo``). Requests
    /// with `highPriority` start before others, `lowPriority` after others, whatever the order.
    public var executionOrder: ExecutionOrder = .fifo
    /// The credential answering HTTP authentication challenges (basic, digest) (default `nil`).
    public var urlCredential: URLCredential?
    /// The user name for HTTP authentication, used with ``password`` when
    /// ``urlCredential`` is `nil` (default `nil`).
    public var username: String?
    /// The password for HTTP authentication, with ``username`` (default `nil`).
    public var password: String?
    /// The HTTP status codes that count as success (default 200..<300, what SDWebImage ships).
    /// A 304 is always reported as ``/WebImageCore/WebImageError/Code/cacheNotModified``.
    public var acceptableStatusCodes = IndexSet(integersIn: 200..<300)
    /// The acceptable MIME types of a response, lower case; an entry may end in `/*`
    /// (`"image/*"`). `nil` (the default) accepts any. A response without a content type is
    /// refused when a set is given.
    public var acceptableContentTypes: Set<String>?
    /// The largest response body, in bytes, the downloader accepts (default 100 MiB). A response
    /// that declares more is refused when its headers arrive (`CURLOPT_MAXFILESIZE_LARGE`); one
    /// that sends more without declaring it (chunked, or delimited by the connection's end) is
    /// cut when it crosses the limit, counted as the bytes arrive. Decoded bytes count when
    /// ``acceptedContentEncodings`` is set. Nothing is buffered beyond it.
    /// (SDWebImage has no limit: ours is the "no unbounded buffering" rule.)
    public var maximumResponseSize = 100 * 1024 * 1024
    /// The most HTTP redirects one download follows (default 16). More, or a redirect to a
    /// scheme other than http(s) (checked on each `Location` before it is requested), fails
    /// the download with ``/WebImageCore/WebImageError/Code/invalidDownloadResponse``.
    ///
    /// On a redirect to another origin (scheme, host or port), the credential and the
    /// `Authorization`, `Proxy-Authorization` and `Cookie` fields (the request modifier's
    /// included) are not sent; the cookie store adds the new host's own cookies.
    public var maximumRedirects = 16
    /// Whether a redirect from https to http is followed (default `false`: the download fails).
    public var allowsHTTPSDowngrade = false
    /// The content codings the downloader asks for and decodes (default empty: it sends
    /// `Accept-Encoding: identity` and keeps the body as sent). The decoded bytes count against
    /// ``maximumResponseSize``, so a compression bomb stops at the limit.
    public var acceptedContentEncodings: [ContentEncoding] = []
    /// Whether connections to loopback, private (RFC 1918, fc00::/7), link-local, shared
    /// (CGNAT 100.64/10), multicast, unspecified and other non-public addresses are refused
    /// (default `false`; a server that downloads URLs its clients give turns it on against
    /// server-side request forgery). It checks the address being connected to, after DNS, so
    /// a name resolving to an inner address is refused too. IPv6 addresses that carry an IPv4
    /// one (IPv4-mapped, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by it; Teredo,
    /// local-use NAT64 and anything outside global unicast (`2000::/3`) are refused.
    ///
    /// Proxies (decision): when it is on, the proxies of the environment (`http_proxy`,
    /// `https_proxy`, `all_proxy`) are not used, since a proxy would connect to the target
    /// for us, unchecked; only ``proxy`` is. With ``proxy`` set, each hop's host is resolved
    /// and every address judged before the request (a refusal names the address, with
    /// ``DownloadAddressRefusal`` underneath, as for a direct connection), and the request
    /// goes through a `CONNECT` tunnel to the address that was checked, so the proxy cannot
    /// resolve the name to another one. The proxy's own address is not judged: it is the
    /// operator's choice, not the URL's.
    public var refusesNonPublicAddresses = false
    /// The proxy every download goes through: `http://host:port`, `https://...`, or, without
    /// ``refusesNonPublicAddresses``, `socks5://...`, `socks5h://...`, `socks4://...`,
    /// `socks4a://...`; user and password may be in the URL (default `nil`).
    ///
    /// With `nil`, the environment's proxies (`http_proxy`, `https_proxy`, `all_proxy`,
    /// `no_proxy`, as libcurl reads them) are used, unless ``refusesNonPublicAddresses`` is on
    /// (then none is). When set, the environment is ignored, `no_proxy` included. A URL
    /// that is not a proxy fails each download at once with
    /// ``/WebImageCore/WebImageError/Code/invalidDownloadOperation`` naming it.
    public var proxy: URL?
    /// The non-public addresses ``refusesNonPublicAddresses`` still lets through: addresses or
    /// CIDR networks, IPv4 or IPv6 (`"10.20.0.0/16"`, `"192.168.1.7"`, `"fd12:3456::/32"`;
    /// default empty). For a server that must reach one inner image origin and nothing else
    /// inside. Each hop is judged on its own: a redirect from an allowed origin to any other
    /// inner address is refused. A malformed entry makes every guarded download fail with a
    /// message naming it.
    public var allowedNonPublicAddresses: [String] = []
    /// A PEM file of CA certificates to verify servers with, instead of the system's
    /// (default `nil`: libcurl's default bundle).
    public var caCertificateFile: String?
    /// A directory of hashed CA certificates (`openssl rehash`) to verify servers with
    /// (default `nil`).
    public var caCertificateDirectory: String?
    /// The most connections to one host at once, across downloads (default 0: no limit but
    /// ``maxConcurrentDownloads``). HTTP/2 downloads to one host share one connection.
    public var maximumConnectionsPerHost = 0
    /// Whether https downloads offer HTTP/2 (ALPN) and multiplex on one connection when the
    /// server accepts (default `true`); http downloads use HTTP/1.1.
    public var usesHTTP2 = true
    /// Fixed name resolutions, in curl's `--resolve` form `HOST:PORT:ADDRESS[,ADDRESS]...`
    /// (default empty), for example `["images.example:443:127.0.0.1"]` to test against a local
    /// server under a public name.
    public var resolveOverrides: [String] = []
    /// The HTTP header fields sent with every request (default ``defaultHTTPHeaders``).
    public var httpHeaders: [String: String] = DownloaderConfiguration.defaultHTTPHeaders
    /// Rewrites or vetoes every request; a request's context
    /// (``WebImageCore/WebImageContext/downloadRequestModifier``) wins over it (default `nil`).
    public var requestModifier: (any RequestModifier)?
    /// Rewrites or vetoes every response; the context's
    /// (``WebImageCore/WebImageContext/downloadResponseModifier``) wins over it (default `nil`).
    public var responseModifier: (any ResponseModifier)?
    /// Transforms every downloaded body before decoding; the context's
    /// (``WebImageCore/WebImageContext/downloadDecryptor``) wins over it (default `nil`).
    public var decryptor: (any Decryptor)?
    /// A `URLCache` used ONLY by `refreshCached` requests (default `nil`: the downloader's own
    /// in-memory store of ``revalidationCacheCapacity`` bytes).
    ///
    /// Other requests bypass it entirely: the image caches already hold what was downloaded,
    /// so the bytes are not cached twice. A `refreshCached` request sends `If-None-Match` /
    /// `If-Modified-Since` from the stored response; a 304, or a body identical to the stored
    /// one, ends the request with ``/WebImageCore/WebImageError/Code/cacheNotModified``; a new body is stored.
    ///
    /// Decision: the default is not a `URLCache`, because swift-corelibs-foundation's
    /// `URLCache` creates a directory under `~/.cache` even with a disk capacity of 0.
    public var urlCache: URLCache?
    /// The capacity in bytes of the downloader's in-memory store for `refreshCached`
    /// revalidation, used when ``urlCache`` is `nil` (default 16 MiB; 0 turns revalidation off).
    public var revalidationCacheCapacity = 16 * 1024 * 1024

    /// A content coding the downloader can ask for and decode (libcurl's decoders).
    public enum ContentEncoding: String, Sendable, Equatable, CaseIterable {
        /// `gzip`.
        case gzip
        /// `deflate` (zlib).
        case deflate
        /// `br` (Brotli).
        case brotli = "br"
    }

    /// The default configuration.
    public init() {}

    /// `Accept: image/*,*/*;q=0.8` and a `User-Agent` naming the library and the OS
    /// (`SwiftWebImage (Linux 6.1.0; x86_64)`).
    public static var defaultHTTPHeaders: [String: String] {
        ["Accept": "image/*,*/*;q=0.8", "User-Agent": userAgent]
    }

    /// The default `User-Agent`: the library, the OS with its version, the CPU architecture.
    public static let userAgent: String = {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        #if os(Linux)
        let system = "Linux"
        #elseif os(macOS)
        let system = "macOS"
        #elseif os(Windows)
        let system = "Windows"
        #else
        let system = "Unknown"
        #endif
        #if arch(x86_64)
        let architecture = "x86_64"
        #elseif arch(arm64)
        let architecture = "arm64"
        #else
        let architecture = "unknown"
        #endif
        return "SwiftWebImage (\(system) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion); \(architecture))"
    }()
}
