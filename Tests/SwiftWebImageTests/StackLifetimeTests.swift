import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// The whole stack (manager, memory + disk cache, downloader) is released when the app lets go
/// of it, after hits, misses, failures and a cancelled load: no operation, coalescing entry or
/// callback keeps a downloader (and its libcurl thread) or a cache alive.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct StackLifetimeTests {
    @Test func theStackIsReleasedAfterLoads() async throws {
        weak var manager: ImageManager?
        weak var downloader: Downloader?
        weak var cache: WebImageCache?
        let png = LoadingStack.png(WebImage(bitmap: TestImages.gradient(width: 8, height: 8)))
        do {
            let stack = try LoadingStack(routes: ["/a.png": LoadingStack.route(png), "/b.png": LoadingStack.route(png)])
            manager = stack.manager
            downloader = stack.downloader
            cache = stack.cache
            _ = try await stack.load("/a.png")
            _ = try await stack.load("/a.png")
            _ = try? await stack.load("/missing.png")
            _ = try await stack.load("/b.png", context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 2, height: 2) })
            let cancelled = Task { try await stack.load("/b.png", options: .fromLoaderOnly) }
            cancelled.cancel()
            _ = try? await cancelled.value
        }
        #expect(manager == nil)
        #expect(downloader == nil)
        #expect(cache == nil)
    }
}
