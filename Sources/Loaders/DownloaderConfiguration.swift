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
    /// data does not time out. swift-corelibs-foundation counts it in whole seconds (it
    /// truncates 1.5 to 1), so the downloader rounds a fraction UP to the next whole second.
    public var downloadTimeout: TimeInterval = 15
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
    /// A 304 is always reported as ``WebImageError/Code/cacheNotModified``.
    public var acceptableStatusCodes = IndexSet(integersIn: 200..<300)
    /// The acceptable MIME types of a response, lower case; an entry may end in `/*`
    /// (`"image/*"`). `nil` (the default) accepts any. A response without a content type is
    /// refused when a set is given.
    public var acceptableContentTypes: Set<String>?
    /// The largest response body, in bytes, the downloader accepts (default 100 MiB). A response
    /// that declares more is cancelled when its headers arrive; one that sends more without
    /// declaring it is cancelled when it crosses the limit. Nothing is buffered beyond it.
    /// (SDWebImage has no limit: ours is the "no unbounded buffering" rule.)
    public var maximumResponseSize = 100 * 1024 * 1024
    /// The most HTTP redirects one download follows (default 16). More, or a redirect to a
    /// scheme other than http(s), fails the download with
    /// ``WebImageError/Code/invalidDownloadResponse``.
    public var maximumRedirects = 16
    /// The HTTP header fields sent with every request (default ``defaultHTTPHeaders``).
    public var httpHeaders: [String: String] = DownloaderConfiguration.defaultHTTPHeaders
    /// Rewrites or vetoes every request; a request's context
    /// (``WebImageContext/downloadRequestModifier``) wins over it (default `nil`).
    public var requestModifier: (any RequestModifier)?
    /// Rewrites or vetoes every response; the context's
    /// (``WebImageContext/downloadResponseModifier``) wins over it (default `nil`).
    public var responseModifier: (any ResponseModifier)?
    /// Transforms every downloaded body before decoding; the context's
    /// (``WebImageContext/downloadDecryptor``) wins over it (default `nil`).
    public var decryptor: (any Decryptor)?
    /// The HTTP cache used ONLY by `refreshCached` requests (default: a private 16 MiB in-memory
    /// cache; `nil` turns revalidation off).
    ///
    /// Other requests bypass it entirely: the image caches already hold what was downloaded,
    /// so the bytes are not cached twice. A `refreshCached` request sends `If-None-Match` /
    /// `If-Modified-Since` from the stored response; a 304, or a body identical to the stored
    /// one, ends the request with ``WebImageError/Code/cacheNotModified``; a new body is stored.
    /// (The downloader does this itself: swift-corelibs-foundation never stores responses of
    /// delegate-based tasks in a `URLCache`, verified on 6.3.)
    public var urlCache: URLCache? = URLCache(memoryCapacity: 16 * 1024 * 1024, diskCapacity: 0, diskPath: nil)

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
