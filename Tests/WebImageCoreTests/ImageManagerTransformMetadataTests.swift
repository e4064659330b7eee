import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// A transformer's output takes its source's format and extended data (SDWebImage's
/// `preserveImageMetadata`, on by default: "override from the full image"), whoever wrote the
/// transformer: the manager applies it. A transformer that turns it off keeps what it set.
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

    /// SDWebImage's test08: the source's metadata overrides what a preserving transformer set.
    @Test func thePreservedMetadataOverridesWhatTheTransformerSet() async throws {
        var plain = TestImages.still(format: .jpeg)
        plain.metadata.insert(.decoded)
        loader.respond(to: url, with: .image(plain, data: Data("jpeg".utf8)))
        let converting = ClosureImageTransformer(key: "Own") { _, _ in
            var image = WebImage(bitmap: TestImages.gradient(width: 4, height: 4), format: .undefined)
            image.extendedData = Data("Foobar".utf8)
            return image
        }
        let result = try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = converting })
        let image = try #require(result.image)
        #expect(image.format == .jpeg, "override from the full image")
        #expect(image.extendedData == nil, "override from the full image")
        #expect(image.metadata.contains(.transformed) && image.pixelSize == PixelSize(width: 4, height: 4))
    }

    /// A transformer that does not preserve metadata keeps what it set.
    struct OwnMetadata: ImageTransformer {
        let transformerKey = "ToJPEG"
        var preserveImageMetadata: Bool { false }
        func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
            var output = WebImage(bitmap: TestImages.gradient(width: 4, height: 4), format: .jpeg)
            output.extendedData = Data("own".utf8)
            return output
        }
    }

    @Test func whatANonPreservingTransformerSetsStands() async throws {
        loader.respond(to: url, with: .image(source, data: Data("png".utf8)))
        let result = try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = OwnMetadata() })
        let image = try #require(result.image)
        #expect(image.format == .jpeg)
        #expect(image.extendedData == Data("own".utf8))
    }
}
