import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

/// The design card's per-request override: one request with its own cache, loader, coder,
/// transformer and thumbnail size, while concurrent requests use the defaults. Each must be
/// served by the right parts.
@Suite struct ContextOverrideScenarioTests {
    @Test func oneRequestOverridesEveryPartWhileOthersUseTheDefaults() async throws {
        RawBitmapCoder.registerFormat()
        let defaultCache = MockImageCache(name: "default cache")
        let defaultLoader = MockImageLoader(name: "default loader")
        let manager = ImageManager(cache: defaultCache, loader: defaultLoader)

        let ownCache = MockImageCache(name: "own cache")
        let ownLoader = MockImageLoader(name: "own loader")
        let ownCoder = MockImageCoder(name: "own coder", magic: Array("mock:".utf8), format: .rawBitmap)
        let ownTransformer = MockImageTransformer(key: "Own")
        let special = URL(string: "https://example.com/special.png")!
        var context = WebImageContext()
        context.imageCache = ownCache
        context.imageLoader = ownLoader
        context.imageCoder = ownCoder
        context.imageTransformer = ownTransformer
        context.imageThumbnailPixelSize = PixelSize(width: 8, height: 8)

        let requestContext = context
        let ordinary = (0..<20).map { URL(string: "https://example.com/ordinary/\($0).png")! }
        let (overridden, defaults) = try await withThrowingTaskGroup(of: (URL, ImageLoadResult).self) { group in
            group.addTask { (special, try await manager.loadImage(with: special, options: [.waitStoreCache], context: requestContext)) }
            for url in ordinary {
                group.addTask { (url, try await manager.loadImage(with: url, options: [.waitStoreCache])) }
            }
            var overridden: ImageLoadResult?
            var defaults: [ImageLoadResult] = []
            for try await (url, result) in group {
                if url == special { overridden = result } else { defaults.append(result) }
            }
            return (try #require(overridden), defaults)
        }

        // The special request: own loader, own coder, own transformer, own cache, thumbnail key.
        let key = "https://example.com/special|Thumbnail(8x8,1)|Own|.png"
        #expect(overridden.cacheKey == key)
        #expect(ownLoader.calls.all.map(\.url) == [special])
        #expect(ownLoader.calls.all.first?.context.imageThumbnailPixelSize == PixelSize(width: 8, height: 8))
        #expect(ownCoder.decodeCount == 1)
        #expect(ownTransformer.calls.all.map(\.key) == [key])
        #expect(MockImageCoder.decoderName(of: try #require(overridden.image)) == "own coder+Own")
        // The thumbnailed, transformed image under the key; the loaded original under the
        // full-size key.
        #expect(ownCache.keys(in: .all) == [key, special.absoluteString])

        // The ordinary requests: default loader and cache only, untouched by the overrides.
        #expect(defaults.count == 20)
        #expect(Set(defaultLoader.calls.all.map(\.url)) == Set(ordinary))
        #expect(defaultCache.keys(in: .all) == Set(ordinary.map(\.absoluteString)))
        #expect(defaults.allSatisfy { $0.image?.metadata.contains(.transformed) == false })
        #expect(defaultLoader.calls.all.allSatisfy { $0.context.imageCoder == nil })
    }
}
