import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

@Suite struct ImageManagerCacheKeyTests {
    let manager = ImageManager(cache: MockImageCache(), loader: MockImageLoader())

    @Test(arguments: [
        ("https://a.com/image.png", "T", "https://a.com/image-T.png"),
        ("https://a.com/image.png?v=2#top", "T", "https://a.com/image-T.png?v=2#top"),
        ("https://a.com/dir.v2/image", "T", "https://a.com/dir.v2/image-T"),
        ("https://a.com/image", "T", "https://a.com/image-T"),
        ("https://a.com/", "T", "https://a.com/-T"),
        ("file:///tmp/a.jpeg", "T", "file:///tmp/a-T.jpeg"),
        ("plain-key", "T", "plain-key-T"),
        ("plain.key.gif", "T", "plain.key-T.gif"),
        ("https://a.com/.hidden", "T", "https://a.com/.hidden-T"),
        ("https://a.com/image-Rotation(0.785,1)", "Flip(1,0)", "https://a.com/image-Rotation(0.785,1)-Flip(1,0)"),
    ])
    func transformerKeyIsInsertedBeforeThePathExtension(key: String, part: String, expected: String) {
        #expect(ImageManager.transformedKey(key, transformerKey: part) == expected)
    }

    @Test func sdWebImageExampleKeepsItsShape() {
        // SDWebImage: image.png + flip + rotate -> image-<flip>-<rotate>.png (pipeline key joined by "-").
        let pipelineKey = "SDImageFlippingTransformer(1,0)-SDImageRotationTransformer(0.78539816339,1)"
        #expect(ImageManager.transformedKey("https://a.com/image.png", transformerKey: pipelineKey)
            == "https://a.com/image-SDImageFlippingTransformer(1,0)-SDImageRotationTransformer(0.78539816339,1).png")
    }

    @Test func fullKeyIsBasePlusThumbnailPlusTransformer() {
        let url = URL(string: "https://a.com/photo@2x.jpg?sig=1")!
        var context = WebImageContext()
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/photo@2x.jpg?sig=1")
        context.imageThumbnailPixelSize = PixelSize(width: 200, height: 100)
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/photo@2x-Thumbnail(200x100,1).jpg?sig=1")
        context.imagePreserveAspectRatio = false
        context.imageTransformer = MockImageTransformer(key: "Blur(4)")
        #expect(manager.originalCacheKey(for: url, context: context) == "https://a.com/photo@2x-Thumbnail(200x100,0).jpg?sig=1")
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/photo@2x-Thumbnail(200x100,0)-Blur(4).jpg?sig=1")
        #expect(manager.cacheKey(for: nil) == nil)
    }

    @Test func cacheKeyFilterOfTheContextWinsOverTheManagers() {
        let url = URL(string: "https://cdn.a.com/img.png?token=secret")!
        manager.cacheKeyFilter = ClosureCacheKeyFilter { url in url.host.map { "manager:\($0)" } }
        #expect(manager.cacheKey(for: url) == "manager:cdn.a.com")
        let context = WebImageContext { $0.cacheKeyFilter = .closure { _ in "context" } }
        #expect(manager.cacheKey(for: url, context: context) == "context")
        manager.cacheKeyFilter = ClosureCacheKeyFilter { _ in nil }
        #expect(manager.cacheKey(for: url) == url.absoluteString, "a filter answering nil falls back to the URL")
    }

    @Test func managerTransformerIsTheDefault() {
        let url = URL(string: "https://a.com/x.png")!
        manager.transformer = MockImageTransformer(key: "Default")
        #expect(manager.cacheKey(for: url) == "https://a.com/x-Default.png")
        let context = WebImageContext { $0.imageTransformer = MockImageTransformer(key: "Mine") }
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/x-Mine.png")
    }
}
