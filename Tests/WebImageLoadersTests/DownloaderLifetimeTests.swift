import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// A downloader is released when its owner lets go, after downloads (its deinit stops the
/// libcurl thread): nothing it starts keeps it alive.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderLifetimeTests {
    @Test func aDownloaderIsReleasedAfterItsDownloads() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let image = Fixtures.wiraw(width: 4, height: 4)
        server.route("/image.wiraw", .data(image, contentType: Fixtures.wirawType))
        weak var released: Downloader?
        do {
            let (downloader, _) = Fixtures.downloader()
            released = downloader
            _ = try await downloader.requestImage(with: server.url(for: "/image.wiraw"))
            _ = try? await downloader.requestImage(with: server.url(for: "/missing"))
        }
        #expect(released == nil)
    }
}
