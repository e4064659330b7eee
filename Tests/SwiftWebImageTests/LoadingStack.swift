import Foundation
import SwiftWebImage
import WebImageTestSupport

/// The whole loading stack of a user's app, in a temporary directory: an ``ImageManager`` over
/// a real ``WebImageCache`` (memory + disk, the built-in coders) and a real ``Downloader``
/// against a ``LoopbackHTTPServer`` whose statistics count the downloads.
final class LoadingStack: Sendable {
    let directory: URL
    let server: LoopbackHTTPServer
    let cache: WebImageCache
    let downloader: Downloader
    let manager: ImageManager

    init(routes: [String: LoopbackHTTPServer.Route]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftwebimage-stack-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        server = try LoopbackHTTPServer(routes: routes)
        cache = WebImageCache(namespace: "stack", directory: directory, coder: CodersManager.shared)
        // An idle timeout no test's own pace can reach (a test that holds a response at a gate
        // may wait a minute for a pool thread in a full parallel run).
        var configuration = DownloaderConfiguration()
        configuration.downloadTimeout = 600
        downloader = Downloader(configuration: configuration, coder: CodersManager.shared)
        manager = ImageManager(cache: cache, loader: downloader)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func url(_ path: String) -> URL { server.url(for: path) }

    /// How many requests the server answered for `path`.
    func downloads(_ path: String) -> Int { server.statistics(for: path).requestCount }

    /// Loads `path` and waits for the cache stores, so that the next load sees them.
    func load(_ path: String, options: WebImageOptions = [], context: WebImageContext = WebImageContext()) async throws -> ImageLoadResult {
        try await manager.loadImage(with: url(path), options: options.union(.waitStoreCache), context: context)
    }

    /// PNG data of `image`.
    static func png(_ image: WebImage) -> Data {
        try! PNGCoder().encode(image, as: .png)
    }

    /// A route serving `data` as `contentType`.
    static func route(_ data: Data, contentType: String = "image/png") -> LoopbackHTTPServer.Route {
        .data(data, contentType: contentType)
    }
}
