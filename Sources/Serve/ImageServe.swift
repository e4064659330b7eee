import Foundation
public import SwiftWebImage
public import WebImageHTTPServer
public import WebImageServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A whole image server, wired as `webimage serve` wires it: the caches of the configuration
/// (``ImageServeCaches``), an ``/WebImageCore/ImageManager`` over the originals cache, the
/// ``/WebImageServer/ImageServer`` handler with its memory tiers sized from the configuration's
/// budget, the access log, and the ``/WebImageHTTPServer/HTTPServer`` that runs it.
///
/// ```swift
/// var configuration = ImageServeConfiguration()
/// configuration.server.securityKey = key
/// configuration.http.port = 8888
/// let serve = try ImageServe(configuration: configuration)
/// try serve.start()
/// // ... on SIGTERM:
/// await serve.shutdown()
/// ```
///
/// Process-wide state is left alone, but for glibc's allocator settings
/// (``ImageServeConfiguration/tunesAllocator``): the coders are the configuration's
/// (``ImageServeConfiguration/coder``), no shared manager is changed, and no signal handler is
/// installed (the embedding program decides how it is told to stop; `webimage serve` stops on
/// SIGTERM and SIGINT).
public final class ImageServe: Sendable {
    /// What the server was made from.
    public let configuration: ImageServeConfiguration
    /// The caches for originals and results.
    public let caches: ImageServeCaches
    /// The request handler.
    public let images: ImageServer
    /// The HTTP server (listening after ``start()``).
    public let http: HTTPServer
    /// The memory budget the decodes are admitted against
    /// (``ImageServeConfiguration/makeMemoryBudget()``).
    public let memoryBudget: MemoryBudget

    /// Builds the server `configuration` describes, not yet listening.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` when the access log file
    ///   cannot be opened.
    public init(configuration: ImageServeConfiguration) throws(WebImageError) {
        self.configuration = configuration
        // The log first: a log that cannot be opened leaves no cache directory behind.
        var server = configuration.effectiveServerConfiguration
        switch configuration.accessLog {
        case .standardError:
            let log = ImageServeAccessLog(descriptor: STDERR_FILENO, closing: false)
            server.accessLog = { log.write($0) }
        case .file(let path):
            let log = try ImageServeAccessLog.appending(to: path)
            server.accessLog = { log.write($0) }
        case .off:
            server.accessLog = nil
        }
        // One memory budget: the caches' decodes and the loaders' decodes are admitted against it.
        let budget = configuration.makeMemoryBudget()
        server.memoryBudget = budget
        memoryBudget = budget
        caches = ImageServeCaches(configuration, coder: budget.budgeting(configuration.coder))
        if let client = caches.redisClient {
            server.additionalMetrics = { RedisClientMetrics.exposition(of: client) }
        }
        // The image server makes the manager over the originals cache with its own loaders
        // (the guarded downloader, the file loader under the root, plug-in schemes).
        images = ImageServer(configuration: server, originalsCache: caches.originals, resultCache: caches.results, coder: configuration.coder)
        http = HTTPServer(configuration: configuration.http, handler: images)
    }

    /// Starts listening (see ``/WebImageHTTPServer/HTTPServer/start()``).
    /// - Throws: A ``/WebImageCore/WebImageError`` naming the address and the reason (port in use, bad host).
    public func start() throws {
        if configuration.tunesAllocator { AllocatorTuning.apply(memoryLimit: memoryBudget.limit) }
        try http.start()
    }

    /// The port listened on (the one picked when the configuration asks for port 0).
    public var port: Int { http.port }

    /// Stops gracefully: new connections are refused, the requests in flight finish (at most
    /// `gracePeriod`, default the request deadline plus 5 seconds, for the answers to go out),
    /// then the threads stop.
    /// - Parameter gracePeriod: How long requests in flight may take; `nil` for the default.
    public func shutdown(gracePeriod: Duration? = nil) async {
        await http.shutdown(gracePeriod: gracePeriod ?? configuration.server.requestTimeout + .seconds(5))
    }
}
