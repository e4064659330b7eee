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
/// Memory: ``memoryLimit`` is the whole process's budget (default: 85% of the control group's
/// limit when one is set, else 1 GiB; see ``effectiveMemoryLimit``). Out of it come the caches
/// (``memoryCacheBytes``, at most half of what the baseline leaves: ``effectiveMemoryCacheBytes``), the
/// process's baseline (``memoryBaselineBytes``), and what is left is for the decodes in flight,
/// admitted against a ``/WebImageServer/MemoryBudget``. The caches' part is split: decoded
/// originals get half (the originals cache's memory tier), the image server's reduced copies
/// of originals and its tier of encoded results a quarter each (``effectiveServerConfiguration``
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
    /// The memory the caches may hold, in bytes, over all of them (default 512 MiB; at most
    /// half of what the baseline leaves of the memory limit is used, see
    /// ``effectiveMemoryCacheBytes``).
    public var memoryCacheBytes = 512 << 20
    /// The memory the whole server may use, in bytes; `nil` (the default) for
    /// ``defaultMemoryLimit()``. It covers the caches' memory tiers, the decodes in flight
    /// (admitted against it: a decode that does not fit waits, then gets `503`) and the
    /// process's baseline; its resident memory stays within it plus about 10%.
    public var memoryLimit: Int?
    /// What the process takes whatever it serves, counted in the memory limit: code, threads,
    /// libraries, the allocator's slack, and the transforms running (default 160 MiB, measured:
    /// `webimage serve` idles at about 40 MiB, and each transform of a large photo holds its
    /// resized copies and encoder buffers).
    public var memoryBaselineBytes = 160 << 20
    /// Whether ``ImageServe/start()`` tells glibc's allocator to give freed memory back
    /// (process-wide settings, see the README's "Running in production"; default `true`).
    public var tunesAllocator = true
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

    /// The default memory limit: 85% of the control group's limit when one is set (a
    /// container's, a systemd unit's `MemoryMax=`), leaving room for the 10% the resident
    /// memory may exceed the budget by; else 1 GiB.
    public static func defaultMemoryLimit() -> Int {
        guard let group = CgroupMemoryLimit.current() else { return 1 << 30 }
        return group / 100 * 85
    }

    /// ``memoryLimit``, or ``defaultMemoryLimit()`` when it is `nil`.
    public var effectiveMemoryLimit: Int {
        memoryLimit ?? Self.defaultMemoryLimit()
    }

    /// The caches' memory: ``memoryCacheBytes``, lowered when it asks for more than half of
    /// what the baseline leaves of ``effectiveMemoryLimit`` (the other half is for decodes).
    public var effectiveMemoryCacheBytes: Int {
        min(memoryCacheBytes, max(0, effectiveMemoryLimit - memoryBaselineBytes) / 2)
    }

    /// The budget of ``effectiveMemoryLimit``: the caches' memory and the baseline are its
    /// fixed part, decodes may hold the rest; a decode waits for room at most the request
    /// deadline.
    public func makeMemoryBudget() -> MemoryBudget {
        let caches = cacheLocation == .disabled ? 0 : effectiveMemoryCacheBytes
        return MemoryBudget(limit: effectiveMemoryLimit, fixedBytes: caches + memoryBaselineBytes, maximumWait: server.requestTimeout)
    }

    /// ``server`` with its memory tiers set from ``effectiveMemoryCacheBytes``: a quarter each
    /// for the reduced copies of originals and the encoded results (0 with
    /// ``CacheLocation/disabled``).
    public var effectiveServerConfiguration: ImageServerConfiguration {
        var server = server
        let quarter = cacheLocation == .disabled ? 0 : effectiveMemoryCacheBytes / 4
        server.reducedOriginalsCapacity = quarter
        server.resultMemoryCapacity = quarter
        return server
    }
}
