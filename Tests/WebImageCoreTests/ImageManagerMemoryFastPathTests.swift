import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// The memory fast path of a plain request (issue 35) answers exactly what the usual path
/// would, and steps aside whenever something could change the answer.
@Suite struct ImageManagerMemoryFastPathTests {
    let url = URL(string: "https://example.com/a.png")!

    func manager(with image: WebImage) -> (ImageManager, MockImageLoader) {
        let cache = MockImageCache()
        cache.preload(image, data: nil, forKey: url.absoluteString)
        let loader = MockImageLoader()
        return (ImageManager(cache: cache, loader: loader), loader)
    }

    @Test func aPlainHitIsAnsweredWithItsKey() async throws {
        let image = TestImages.still(format: .png)
        let (manager, loader) = manager(with: image)
        let result = try await manager.loadImage(with: url)
        #expect(result.cacheType == .memory && result.cacheKey == url.absoluteString && result.url == url)
        #expect(result.image?.pixelSize == image.pixelSize)
        #expect(loader.requestCount == 0)
    }

    @Test func aBlockedURLIsRefusedEvenWithAMemoryHit() async throws {
        let (manager, loader) = manager(with: TestImages.still(format: .png))
        let failing = URL(string: "https://example.com/broken.png")!
        loader.respond(to: failing, with: .failure(WebImageError(.invalidDownloadStatusCode, "404")))
        _ = try? await manager.loadImage(with: failing)
        await #expect(throws: WebImageError.self) { _ = try await manager.loadImage(with: failing) }
        // Blocked URLs make every request take the usual path; a hit is still a hit.
        #expect(try await manager.loadImage(with: url).cacheType == .memory)
    }

    @Test func aManagerTransformerOrAContextKeySendsTheRequestTheUsualWay() async throws {
        let (manager, _) = manager(with: TestImages.still(format: .png))
        manager.transformer = MockImageTransformer(key: "T")
        let transformed = try await manager.loadImage(with: url)
        #expect(transformed.cacheKey != url.absoluteString, "the transformer's key, not the plain one")
        manager.transformer = nil
        #expect(try await manager.loadImage(with: url).cacheKey == url.absoluteString)
        let thumbnail = try await manager.loadImage(with: url, context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 2, height: 2) })
        #expect(thumbnail.cacheKey.contains("Thumbnail(2x2,1)"))
    }
}
