import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// A URL (or a cache key filter's answer) can never spell the cache key of another request's
/// thumbnail or transformed image: a first fetch of such a URL is a download of its own image,
/// never a hit of the other request's pixels. The whole stack, with a loopback server.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct CacheKeyCollisionTests {
    /// The image of the first request: a 16x12 gradient.
    static let first = LoadingStack.png(WebImage(bitmap: TestImages.gradient(width: 16, height: 12)))
    /// The image of the second request: 5x5 red, so that a wrong hit shows.
    static let second = LoadingStack.png(WebImage(bitmap: TestImages.solid(RGBAColor(red: 255, green: 0, blue: 0), width: 5, height: 5)))

    static let thumbnail = WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 2, height: 2) }
    static let flipped = WebImageContext { $0.imageTransformer = FlippingTransformer.flip(horizontal: true) }
    static let both = WebImageContext {
        $0.imageThumbnailPixelSize = PixelSize(width: 2, height: 2)
        $0.imageTransformer = FlippingTransformer.flip(horizontal: true)
    }
    static let scaleDown = WebImageContext { $0.imageScaleDownLimitBytes = 48 * 4 }

    /// A first request of `firstPath` with a variant, then a plain request of `secondPath`,
    /// a URL that spells a key of the first (in the old format or the new one).
    struct Case: Sendable, CustomTestStringConvertible {
        let firstPath: String
        let variant: String
        let secondPath: String
        var testDescription: String { "\(firstPath) \(variant), then \(secondPath)" }

        var options: WebImageOptions { variant == "scaleDown" ? .scaleDownLargeImages : [] }
        var context: WebImageContext {
            switch variant {
            case "thumbnail": CacheKeyCollisionTests.thumbnail
            case "flip": CacheKeyCollisionTests.flipped
            case "scaleDown": CacheKeyCollisionTests.scaleDown
            default: CacheKeyCollisionTests.both
            }
        }
    }

    static let urlCases: [Case] = [
        // The key format before issue 18: the parts spliced into the URL with "-".
        Case(firstPath: "/p/a.png", variant: "thumbnail", secondPath: "/p/a-Thumbnail(2x2,1).png"),
        Case(firstPath: "/p/f.png", variant: "flip", secondPath: "/p/f-FlippingTransformer(1,0).png"),
        Case(firstPath: "/p/b.png", variant: "both", secondPath: "/p/b-Thumbnail(2x2,1)-FlippingTransformer(1,0).png"),
        Case(firstPath: "/p/n", variant: "thumbnail", secondPath: "/p/n-Thumbnail(2x2,1)"),
        // The separator of the new format in a URL (percent-encoded by URL, so never raw).
        Case(firstPath: "/p/c.png", variant: "thumbnail", secondPath: "/p/c%7CThumbnail(2x2,1)%7C.png"),
        Case(firstPath: "/p/d.png", variant: "flip", secondPath: "/p/d%7CFlippingTransformer(1,0)%7C.png"),
        Case(firstPath: "/p/e.png", variant: "both", secondPath: "/p/e%7CThumbnail(2x2,1)%7CFlippingTransformer(1,0)%7C.png"),
        Case(firstPath: "/p/s.png", variant: "scaleDown", secondPath: "/p/s%7CScaleDown(192)%7C.png"),
    ]

    @Test(arguments: urlCases)
    func aURLThatSpellsAVariantKeyIsDownloaded(_ spelled: Case) async throws {
        let stack = try LoadingStack(routes: [
            spelled.firstPath: LoadingStack.route(Self.first),
            spelled.secondPath: LoadingStack.route(Self.second),
        ])
        let variant = try await stack.load(spelled.firstPath, options: spelled.options, context: spelled.context)
        #expect(variant.image != nil)
        let plain = try await stack.load(spelled.secondPath)
        #expect(stack.downloads(spelled.secondPath) == 1, "\(spelled.secondPath) was served from the cache under key \(plain.cacheKey)")
        #expect(plain.image?.pixelSize == PixelSize(width: 5, height: 5))
        #expect(plain.image?.bitmap[0, 0] == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(plain.cacheKey != variant.cacheKey)
    }

    /// A cache key filter may answer anything, including strings that look like variant keys
    /// of the old format or the new one, and strings with the escape character.
    static let filterCases: [(variantBase: String, variant: String, plainKey: String)] = [
        ("k.png", "thumbnail", "k-Thumbnail(2x2,1).png"),
        ("k.png", "thumbnail", "k|Thumbnail(2x2,1)|.png"),
        ("k.png", "flip", "k|FlippingTransformer(1,0)|.png"),
        ("k.png", "both", "k|Thumbnail(2x2,1)|FlippingTransformer(1,0)|.png"),
        ("k", "thumbnail", "k|Thumbnail(2x2,1)|"),
        ("k\\", "thumbnail", "k\\|Thumbnail(2x2,1)|"),
        ("k|", "flip", "k||FlippingTransformer(1,0)|"),
        ("k.png", "scaleDown", "k|ScaleDown(192)|.png"),
    ]

    @Test(arguments: filterCases)
    func aFilterKeyThatSpellsAVariantKeyIsDownloaded(variantBase: String, variant: String, plainKey: String) async throws {
        let stack = try LoadingStack(routes: [
            "/first": LoadingStack.route(Self.first),
            "/second": LoadingStack.route(Self.second),
        ])
        let keys = ["/first": variantBase, "/second": plainKey]
        stack.manager.cacheKeyFilter = ClosureCacheKeyFilter { url in keys[url.path] }
        let variantCase = Case(firstPath: "/first", variant: variant, secondPath: "/second")
        let variant = try await stack.load("/first", options: variantCase.options, context: variantCase.context)
        #expect(variant.image != nil)
        let plain = try await stack.load("/second")
        #expect(stack.downloads("/second") == 1, "the filter key \(plainKey) was served from the cache under key \(plain.cacheKey)")
        #expect(plain.image?.pixelSize == PixelSize(width: 5, height: 5))
        #expect(plain.cacheKey != variant.cacheKey)
    }
}
