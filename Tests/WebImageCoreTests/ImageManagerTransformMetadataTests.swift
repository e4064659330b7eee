import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// A transformer's output keeps its source's format and extended data unless the transformer
/// sets them (SDWebImage's default), whoever wrote the transformer: the manager applies it.
@Suite struct ImageManagerTransformMetadataTests {
    let cache = MockImageCache()
    let loader = MockImageLoader()
    let manager: ImageManager
    let url = URL(string: "https://example.com/source.png")!
    let extended = Data("source-extended".utf8)

    init() {
        manager = ImageManager(cache: cache, loader: loader)
    }

    /// The source image: a PNG with extended data.
    var source: WebImage {
        var image = TestImages.still(format: .png)
        image.extendedData = extended
        return image
    }

    /// A third-party transformer that draws a fresh image: no format, no extended data.
    static let fresh = ClosureImageTransformer(key: "Fresh") { _, _ in
        WebImage(bitmap: TestImages.gradient(width: 4, height: 4, seed: 9))
    }

    @Test func aFreshImageFromALoadInheritsFormatAndExtendedData() async throws {
        loader.respond(to: url, with: .image(source, data: Data("png".utf8)))
        let result = try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = Self.fresh })
        let image = try #require(result.image)
        #expect(image.pixelSize == PixelSize(width: 4, height: 4))
        #expect(image.format == .png)
        #expect(image.extendedData == extended)
        #expect(image.metadata.contains(.transformed))
    }

    @Test func aFreshImageFromTheCachedOriginalInheritsFormatAndExtendedData() async throws {
        cache.preload(source, data: Data("png".utf8), forKey: url.absoluteString)
        let result = try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = Self.fresh })
        #expect(loader.requestCount == 0, "served from the original key")
        let image = try #require(result.image)
        #expect(image.format == .png)
        #expect(image.extendedData == extended)
    }

    @Test func whatTheTransformerSetsStands() async throws {
        loader.respond(to: url, with: .image(source, data: Data("png".utf8)))
        let own = Data("own".utf8)
        let converting = ClosureImageTransformer(key: "ToJPEG") { _, _ in
            var image = WebImage(bitmap: TestImages.gradient(width: 4, height: 4), format: .jpeg)
            image.extendedData = own
            return image
        }
        let result = try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = converting })
        let image = try #require(result.image)
        #expect(image.format == .jpeg)
        #expect(image.extendedData == own)
    }
}
