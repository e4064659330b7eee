public import Foundation
public import RedisCache
public import SwiftWebImage
public import WebImageHTTPServer
public import WebImageServer

/// Everything an ``ImageServe`` is made of: the image server's and the HTTP server's
/// configurations, the caches (where, how large, Redis behind them), the access log and the
/// coders. `webimage serve` parses its command line and environment into one; an application
/// that embeds the server fills one in and gets the same wiring.
///
/// Memory: ``memoryCacheBytes`` is the total for the caches that hold memory. Decoded originals
/// get half of it (the originals cache's memory tier), the image server's reduced copies of
/// originals and its tier of encoded results a quarter each (``effectiveServerConfiguration``
/// sets them; with ``CacheLocation/disabled`` both are 0). ``diskCacheBytes`` is split in half
/// between originals and results.
public struct ImageServeConfiguration: Sendable {
    /// Where the caches live.
    public enum CacheLocation: Sendable, Equatable {
        /// `$XDG_CACHE_HOME/swiftwebimage/serve-originals` and `serve-results` (or under `~/.cache`).
        case standard
        /// `DIR/originals` and `DIR/results`.
        case directory(URL)
        /// No memory or disk cache (Redis still, with ``ImageServeConfiguration/redis``).
        case disabled
    }

    /// Where the access log goes.
    public enum AccessLog: Sendable, Equatable {
        /// Standard error (the default).
        case standardError
        /// Appended to this file (made if missing).
        case file(String)
        /// Not written.
        case off
    }

    /// The image server's configuration (security, sources, limits, headers). Its memory tiers
    /// are set from ``memoryCacheBytes`` (see ``effectiveServerConfiguration``).
    public var server = ImageServerConfiguration()
    /// The HTTP server's configuration (port 8888 on every interface by default).
    public var http = HTTPServerConfiguration()
    /// Where the caches live.
    public var cacheLocation = CacheLocation.standard
    /// The memory the caches may hold, in bytes, over all of them (default 512 MiB).
    public var memoryCacheBytes = 512 << 20
    /// The disk the caches may use, in bytes, over both (default 2 GiB).
    public var diskCacheBytes = 2048 << 20
    /// A Redis server the caches of a fleet share, behind memory and disk; `nil` for none.
    public var redis: RedisClient.Configuration?
    /// The Redis namespace prefix (`<prefix>-originals`, `<prefix>-results`).
    public var redisNamespace = "webimage-serve"
    /// Where the access log goes.
    public var accessLog = AccessLog.standardError
    /// Decodes sources and encodes results, in every cache and the image server (default:
    /// `CodersManager.shared`). Pass a coders manager of your own with the
    /// plug-in coders the server should speak (`webimage serve` passes the built-in coders and
    /// the WebP, HEIF, JPEG XL and AVIF plug-ins, and changes no shared manager).
    public var coder: any ImageCoder = CodersManager.shared

    /// The defaults: port 8888, 512 MiB of memory and 2 GiB of disk in the standard cache
    /// directory, no Redis, the access log on standard error. The image server's own defaults
    /// refuse every URL until it has a security key or allows unsigned URLs.
    public init() {}

    /// ``server`` with its memory tiers set from ``memoryCacheBytes``: a quarter each for the
    /// reduced copies of originals and the encoded results (0 with ``CacheLocation/disabled``).
    public var effectiveServerConfiguration: ImageServerConfiguration {
        var server = server
        let quarter = cacheLocation == .disabled ? 0 : memoryCacheBytes / 4
        server.reducedOriginalsCapacity = quarter
        server.resultMemoryCapacity = quarter
        return server
    }
}
