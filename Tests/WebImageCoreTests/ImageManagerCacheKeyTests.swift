import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

@Suite struct ImageManagerCacheKeyTests {
    let manager = ImageManager(cache: MockImageCache(), loader: MockImageLoader())

    @Test(arguments: [
        ("https://a.com/image.png", "T", "https://a.com/image|T|.png"),
        ("https://a.com/image.png?v=2#top", "T", "https://a.com/image|T|.png?v=2#top"),
        ("https://a.com/dir.v2/image", "T", "https://a.com/dir.v2/image|T|"),
        ("https://a.com/image", "T", "https://a.com/image|T|"),
        ("https://a.com/", "T", "https://a.com/|T|"),
        ("file:///tmp/a.jpeg", "T", "file:///tmp/a|T|.jpeg"),
        ("plain-key", "T", "plain-key|T|"),
        ("plain.key.gif", "T", "plain.key|T|.gif"),
        ("https://a.com/.hidden", "T", "https://a.com/.hidden|T|"),
        ("https://a.com/image-Rotation(0.785,1)", "Flip(1,0)", "https://a.com/image-Rotation(0.785,1)|Flip(1,0)|"),
    ])
    func transformerKeyIsInsertedBeforeThePathExtension(key: String, part: String, expected: String) {
        #expect(ImageManager.transformedKey(key, transformerKey: part) == expected)
    }

    @Test func sdWebImageExampleKeepsItsParts() {
        // SDWebImage: image.png + flip + rotate -> the pipeline key (joined by "-") before ".png".
        let pipelineKey = "SDImageFlippingTransformer(1,0)-SDImageRotationTransformer(0.78539816339,1)"
        #expect(ImageManager.transformedKey("https://a.com/image.png", transformerKey: pipelineKey)
            == "https://a.com/image|SDImageFlippingTransformer(1,0)-SDImageRotationTransformer(0.78539816339,1)|.png")
    }

    @Test func fullKeyIsBasePlusThumbnailPlusScaleDownPlusTransformer() {
        let url = URL(string: "https://a.com/photo@2x.jpg?sig=1")!
        var context = WebImageContext()
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/photo@2x.jpg?sig=1")
        context.imageThumbnailPixelSize = PixelSize(width: 200, height: 100)
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/photo@2x|Thumbnail(200x100,1)|.jpg?sig=1")
        context.imagePreserveAspectRatio = false
        context.imageTransformer = MockImageTransformer(key: "Blur(4)")
        #expect(manager.originalCacheKey(for: url, context: context) == "https://a.com/photo@2x.jpg?sig=1", "the original key is the full-size image's")
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/photo@2x|Thumbnail(200x100,0)|Blur(4)|.jpg?sig=1")
        #expect(manager.cacheKey(for: url, options: .scaleDownLargeImages, context: context)
            == "https://a.com/photo@2x|Thumbnail(200x100,0)|ScaleDown(\(ImageDecodeOptions.defaultScaleDownLimitBytes))|Blur(4)|.jpg?sig=1")
        context.imageScaleDownLimitBytes = 4096
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/photo@2x|Thumbnail(200x100,0)|Blur(4)|.jpg?sig=1", "a budget without scaleDownLargeImages does nothing")
        #expect(manager.cacheKey(for: url, options: .scaleDownLargeImages, context: context) == "https://a.com/photo@2x|Thumbnail(200x100,0)|ScaleDown(4096)|Blur(4)|.jpg?sig=1")
        #expect(manager.cacheKey(for: nil) == nil)
        #expect(manager.originalCacheKey(for: nil) == nil)
    }

    @Test func keepingColourProfilesIsAPartOfTheKeyAndOfTheOriginalKey() {
        let url = URL(string: "https://a.com/photo@2x.jpg")!
        var context = WebImageContext { $0.imageColorProfileHandling = .keep }
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/photo@2x|ColorProfile(keep)|.jpg")
        #expect(manager.originalCacheKey(for: url, context: context) == "https://a.com/photo@2x|ColorProfile(keep)|.jpg",
                "the full-size image of a keep request is not the default one")
        #expect(ImageDecodeOptions.scaleFactor(fromKey: manager.cacheKey(for: url, context: context)!) == 2)
        context.imageThumbnailPixelSize = PixelSize(width: 20, height: 10)
        context.imageTransformer = MockImageTransformer(key: "ColorProfile(keep)")
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/photo@2x|ColorProfile(keep)|Thumbnail(20x10,1)|\\ColorProfile(keep)|.jpg",
                "a transformer key spelled as the part is escaped")
        #expect(manager.originalCacheKey(for: url, context: context) == "https://a.com/photo@2x|ColorProfile(keep)|.jpg")
        // Converting is the default and adds nothing; the decode options say it too.
        #expect(manager.cacheKey(for: url, context: WebImageContext { $0.imageColorProfileHandling = .convertToSRGB }) == url.absoluteString)
        var decodeOptions = ImageDecodeOptions()
        decodeOptions.colorProfileHandling = .keep
        #expect(manager.cacheKey(for: url, context: WebImageContext { $0.imageDecodeOptions = decodeOptions }) == "https://a.com/photo@2x|ColorProfile(keep)|.jpg")
        #expect(ImageManager.cacheKey(forBaseKey: "a|b.png", keepsColorProfile: true) == "a\\|b|ColorProfile(keep)|.png")
    }

    @Test func theDecodeOptionsInTheContextNameTheirThumbnailAndBudget() {
        let url = URL(string: "https://a.com/p.png")!
        var decodeOptions = ImageDecodeOptions()
        decodeOptions.thumbnailPixelSize = PixelSize(width: 8, height: 8)
        decodeOptions.preserveAspectRatio = false
        decodeOptions.scaleDownLimitBytes = 1024
        let context = WebImageContext { $0.imageDecodeOptions = decodeOptions }
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/p|Thumbnail(8x8,0)|ScaleDown(1024)|.png")
        // An empty thumbnail size is no thumbnail.
        #expect(manager.cacheKey(for: url, context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 0, height: 0) }) == url.absoluteString)
    }

    @Test func aScaleFactorInTheBaseKeySurvivesTheVariantParts() {
        let key = ImageManager.thumbnailedKey("https://a.com/photo@2x.png", size: PixelSize(width: 4, height: 4), preserveAspectRatio: true)
        #expect(key == "https://a.com/photo@2x|Thumbnail(4x4,1)|.png")
        #expect(ImageDecodeOptions.scaleFactor(fromKey: key) == 2)
        #expect(ImageDecodeOptions.scaleFactor(fromKey: ImageManager.transformedKey("https://a.com/p@3x", transformerKey: "T")) == 3)
    }

    @Test func cacheKeyFilterOfTheContextWinsOverTheManagers() {
        let url = URL(string: "https://cdn.a.com/img.png?token=secret")!
        manager.cacheKeyFilter = ClosureCacheKeyFilter { url in url.host.map { "manager:\($0)" } }
        #expect(manager.cacheKey(for: url) == "manager:cdn.a.com")
        let context = WebImageContext { $0.cacheKeyFilter = .closure { _ in "context" } }
        #expect(manager.cacheKey(for: url, context: context) == "context")
        #expect(manager.originalCacheKey(for: url, context: context) == "context")
        manager.cacheKeyFilter = ClosureCacheKeyFilter { _ in nil }
        #expect(manager.cacheKey(for: url) == url.absoluteString, "a filter answering nil falls back to the URL")
    }

    @Test func managerTransformerIsTheDefault() {
        let url = URL(string: "https://a.com/x.png")!
        manager.transformer = MockImageTransformer(key: "Default")
        #expect(manager.cacheKey(for: url) == "https://a.com/x|Default|.png")
        let context = WebImageContext { $0.imageTransformer = MockImageTransformer(key: "Mine") }
        #expect(manager.cacheKey(for: url, context: context) == "https://a.com/x|Mine|.png")
    }

    // MARK: Keys never collide

    /// A URL's absolute string never holds a raw `|` or `\`: its key is the URL, as before.
    @Test(arguments: ["https://a.com/a|b\\c.png", "https://a.com/a%7Cb.png", "file:///tmp/a|b.png"])
    func aURLsKeyIsItsString(_ string: String) throws {
        let url = try #require(URL(string: string))
        let key = try #require(manager.cacheKey(for: url))
        #expect(key == url.absoluteString)
        #expect(!key.contains("|") && !key.contains("\\"))
    }

    /// A filter's key with `\` or `|` is escaped; one without is kept as is.
    @Test(arguments: [
        ("k.png", "k.png", "k|Thumbnail(2x2,1)|.png"),
        ("k|Thumbnail(2x2,1)|.png", "k\\|Thumbnail(2x2,1)\\|.png", "k\\|Thumbnail(2x2,1)\\||Thumbnail(2x2,1)|.png"),
        ("k\\", "k\\\\", "k\\\\|Thumbnail(2x2,1)|"),
        ("a\\|b", "a\\\\\\|b", "a\\\\\\|b|Thumbnail(2x2,1)|"),
    ])
    func aFilterKeyIsEscaped(filterKey: String, plainKey: String, thumbnailKey: String) {
        let url = URL(string: "https://a.com/x.png")!
        manager.cacheKeyFilter = ClosureCacheKeyFilter { _ in filterKey }
        #expect(manager.cacheKey(for: url) == plainKey)
        #expect(manager.originalCacheKey(for: url) == plainKey)
        #expect(manager.cacheKey(for: url, context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 2, height: 2) }) == thumbnailKey)
    }

    /// A `|` that a combining mark follows is still escaped: the escaping works on scalars.
    @Test func aSeparatorUnderACombiningMarkIsEscaped() {
        let key = ImageManager.cacheKey(forBaseKey: "a|\u{301}b")
        #expect(Array(key.unicodeScalars) == Array("a\\|\u{301}b".unicodeScalars))
        #expect(ImageManager.transformedKey("k", transformerKey: "Thumbnail(\u{301}") == "k|\\Thumbnail(\u{301}|")
    }

    @Test(arguments: [
        ("T|x", "k|T\\|x|.png"),
        ("T\\", "k|T\\\\|.png"),
        ("Thumbnail(2x2,1)", "k|\\Thumbnail(2x2,1)|.png"),
        ("ScaleDown(9)", "k|\\ScaleDown(9)|.png"),
        ("", "k||.png"),
    ])
    func aTransformerKeyIsEscapedAndNeverTakenForAnotherPart(transformerKey: String, expected: String) {
        #expect(ImageManager.transformedKey("k.png", transformerKey: transformerKey) == expected)
    }

    /// Every combination of an adversarial base key (URLs, filter answers that look like keys
    /// of either format, escape characters) and variant parts (none, thumbnail, scale-down,
    /// transformers whose keys look like parts or hold the separator) gives a distinct key.
    @Test func everyCombinationOfBaseAndPartsHasItsOwnKey() {
        let bases = [
            "a", "a.png", "", "|", "\\", "a|", "a\\", "a\\|", "a|\\", "a||", "a\\\\",
            "a-Thumbnail(2x2,1).png", "a|Thumbnail(2x2,1)|.png", "a|Thumbnail(2x2,1)|", "a|T|.png", "a|T|",
            "a.png|T|", "a|T.png", "a.T|.png", "a\\|Thumbnail(2x2,1)\\|.png", "a|ScaleDown(100)|.png",
            "https://x.com/a.png?q=1", "https://x.com/a|T|.png?q=1", "https://x.com/a", "https://x.com/a|T|",
            "a|\u{301}T|.png", "a|\u{301}", "k|\u{301}|",
        ]
        let thumbnails: [PixelSize?] = [nil, PixelSize(width: 2, height: 2)]
        let preserve = [true, false]
        let budgets: [Int?] = [nil, 100]
        let transformers: [String?] = [
            nil, "T", "", "|", "\\", "T.png", "T|", "|T", "T|.png", "Thumbnail(2x2,1)", "Thumbnail(2x2,0)",
            "ScaleDown(100)", "\\Thumbnail(2x2,1)", "Thumbnail(2x2,1)|T", "a|b", "ScaleDown(100)|T",
            "\u{301}", "\u{301}T", "Thumbnail(\u{301}2x2,1)",
        ]
        var seen: [String: String] = [:]
        var collisions: [String] = []
        for base in bases {
            for thumbnail in thumbnails {
                for keepsRatio in (thumbnail == nil ? [true] : preserve) {
                    for budget in budgets {
                        for transformer in transformers {
                            let key = ImageManager.cacheKey(forBaseKey: base, thumbnailPixelSize: thumbnail, preserveAspectRatio: keepsRatio, scaleDownLimitBytes: budget, transformerKey: transformer)
                            let input = "base \(String(reflecting: base)) thumbnail \(String(describing: thumbnail)) \(keepsRatio) budget \(String(describing: budget)) transformer \(String(reflecting: transformer))"
                            if let other = seen[key] { collisions.append("\(key): \(other) AND \(input)") }
                            seen[key] = input
                        }
                    }
                }
            }
        }
        #expect(collisions.isEmpty, "\(collisions.prefix(5))")
        #expect(seen.count == bases.count * 3 * budgets.count * transformers.count)
    }
}
