import Testing
import WebImageCore

/// ``ImageDecodeOptions``: the decode size under thumbnail and scale-down limits, the scale
/// factor from a key, and how a request's options and context become decode options.
@Suite struct ImageDecodeOptionsTests {
    static func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    // MARK: - Defaults

    @Test func defaults() {
        let options = ImageDecodeOptions()
        #expect(options.scaleFactor == 1)
        #expect(options.thumbnailPixelSize == nil)
        #expect(options.preserveAspectRatio)
        #expect(options.firstFrameOnly == false)
        #expect(options.scaleDownLimitBytes == nil)
        #expect(options.fileExtensionHint == nil)
        #expect(options.applyOrientation)
        #expect(options.maxPixelCount == 50_000_000)
        #expect(ImageDecodeOptions.defaultMaxPixelCount == 50_000_000)
        #expect(options.maxTotalPixelCount == 100_000_000)
        #expect(ImageDecodeOptions.defaultMaxTotalPixelCount == 100_000_000)
        #expect(options.preloadAllFrames == false)
        #expect(options.context.isEmpty)
        #expect(ImageDecodeOptions.defaultScaleDownLimitBytes == 60 * 1024 * 1024)
    }

    // MARK: - targetPixelSize: no limits

    @Test("without limits the source size is kept", arguments: [(1, 1), (640, 480), (10_000, 3), (1 << 20, 1 << 20)])
    func noLimits(width: Int, height: Int) {
        #expect(ImageDecodeOptions().targetPixelSize(for: Self.size(width, height)) == Self.size(width, height))
        #expect(ImageDecodeOptions().targetPixelSize(for: Self.size(width, height), frameCount: 100) == Self.size(width, height))
    }

    @Test("an empty source is returned as is", arguments: [(0, 0), (0, 10), (10, 0), (-5, 10)])
    func emptySource(width: Int, height: Int) {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = Self.size(1, 1)
        options.scaleDownLimitBytes = 4
        #expect(options.targetPixelSize(for: Self.size(width, height)) == Self.size(width, height))
    }

    // MARK: - targetPixelSize: thumbnails

    @Test("thumbnail keeping the aspect ratio", arguments: [
        // source, thumbnail, expected
        ((1000, 500), (100, 100), (100, 50)),
        ((500, 1000), (100, 100), (50, 100)),
        ((1000, 500), (200, 300), (200, 100)),
        ((1000, 1000), (100, 50), (50, 50)),
        ((100, 100), (200, 50), (50, 50)),
        ((1000, 10), (100, 100), (100, 1)),
        ((10, 1000), (100, 100), (1, 100)),
        ((3000, 2000), (300, 300), (300, 200)),
        ((4000, 3000), (400, 400), (400, 300)),
        ((1024, 768), (512, 512), (512, 384)),
    ])
    func thumbnailPreservingAspectRatio(source: (Int, Int), thumbnail: (Int, Int), expected: (Int, Int)) {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = Self.size(thumbnail.0, thumbnail.1)
        #expect(options.targetPixelSize(for: Self.size(source.0, source.1)) == Self.size(expected.0, expected.1))
    }

    @Test("thumbnail ignoring the aspect ratio", arguments: [
        ((1000, 500), (100, 100), (100, 100)),
        ((500, 1000), (100, 30), (100, 30)),
        ((50, 500), (100, 100), (50, 100)),
        ((500, 50), (100, 100), (100, 50)),
        ((1000, 10), (100, 100), (100, 10)),
    ])
    func thumbnailIgnoringAspectRatio(source: (Int, Int), thumbnail: (Int, Int), expected: (Int, Int)) {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = Self.size(thumbnail.0, thumbnail.1)
        options.preserveAspectRatio = false
        #expect(options.targetPixelSize(for: Self.size(source.0, source.1)) == Self.size(expected.0, expected.1))
    }

    @Test("a thumbnail never upscales", arguments: [false, true], [
        ((100, 100), (100, 100)), ((100, 100), (200, 200)), ((100, 50), (1000, 50)), ((100, 50), (100, 5000)), ((1, 1), (9999, 9999)),
    ])
    func thumbnailNeverUpscales(preserveAspectRatio: Bool, sizes: ((Int, Int), (Int, Int))) {
        var options = ImageDecodeOptions()
        options.preserveAspectRatio = preserveAspectRatio
        options.thumbnailPixelSize = Self.size(sizes.1.0, sizes.1.1)
        let source = Self.size(sizes.0.0, sizes.0.1)
        #expect(options.targetPixelSize(for: source) == source)
    }

    @Test("a thumbnail is at least 1x1", arguments: [false, true], [
        ((10_000, 1), (10, 10)), ((1, 10_000), (10, 10)), ((100_000, 100_000), (1, 1)), ((5000, 3), (2, 2)),
    ])
    func thumbnailAtLeastOnePixel(preserveAspectRatio: Bool, sizes: ((Int, Int), (Int, Int))) {
        var options = ImageDecodeOptions()
        options.preserveAspectRatio = preserveAspectRatio
        options.thumbnailPixelSize = Self.size(sizes.1.0, sizes.1.1)
        let target = options.targetPixelSize(for: Self.size(sizes.0.0, sizes.0.1))
        #expect(target.width >= 1)
        #expect(target.height >= 1)
        #expect(target.width <= max(1, sizes.1.0))
        #expect(target.height <= max(1, sizes.1.1))
    }

    @Test("an empty thumbnail size means full size", arguments: [(0, 0), (0, 100), (100, 0), (-1, 50)])
    func emptyThumbnail(width: Int, height: Int) {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = Self.size(width, height)
        #expect(options.targetPixelSize(for: Self.size(1000, 800)) == Self.size(1000, 800))
        options.thumbnailPixelSize = .zero
        #expect(options.targetPixelSize(for: Self.size(1000, 800)) == Self.size(1000, 800))
    }

    /// The side that constrains a thumbnail must come out exactly at the thumbnail's size: a
    /// 100-pixel-wide source asked for 29 pixels gives 29, not 28 from `100 * (29 / 100)`
    /// rounding down to 28.999999999999996.
    @Test("the constraining side of a thumbnail is exact", arguments: [
        (100, 29), (22, 15), (23, 13), (26, 15), (39, 31), (43, 23), (43, 31), (44, 15), (44, 30), (45, 13), (45, 26),
        (1000, 333), (1000, 1), (999, 998),
    ])
    func constrainingSideIsExact(sourceWidth: Int, thumbnailWidth: Int) {
        var options = ImageDecodeOptions()
        // Tall source: the width constrains, the height follows at three times the width.
        options.thumbnailPixelSize = Self.size(thumbnailWidth, 1_000_000)
        let target = options.targetPixelSize(for: Self.size(sourceWidth, sourceWidth * 3))
        #expect(target == Self.size(thumbnailWidth, thumbnailWidth * 3))
        // Wide source: the height constrains.
        options.thumbnailPixelSize = Self.size(1_000_000, thumbnailWidth)
        let wide = options.targetPixelSize(for: Self.size(sourceWidth * 3, sourceWidth))
        #expect(wide == Self.size(thumbnailWidth * 3, thumbnailWidth))
    }

    // MARK: - targetPixelSize: scale-down limit

    @Test("scale-down keeps sqrt(limit / frames / 4) pixels per side for a square", arguments: [
        // source side, limit bytes, frames, expected side
        (4000, 4_000_000, 1, 1000),
        (4000, 4_000_000, 4, 500),
        (4000, 4_000_000, 16, 250),
        (8192, 64 * 1024 * 1024, 1, 4096),
        (8192, 64 * 1024 * 1024, 4, 2048),
        (1000, 4_000_000, 1, 1000),  // exactly at the budget: unchanged
        (999, 4_000_000, 1, 999),  // under the budget: unchanged
    ])
    func scaleDownSquare(side: Int, limit: Int, frames: Int, expected: Int) {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = limit
        #expect(options.targetPixelSize(for: Self.size(side, side), frameCount: frames) == Self.size(expected, expected))
    }

    @Test("scale-down keeps the aspect ratio", arguments: [
        ((4000, 2000), 8_000_000, 1, (2000, 1000)),
        ((4000, 2000), 8_000_000, 4, (1000, 500)),
        ((2000, 4000), 8_000_000, 1, (1000, 2000)),
        ((16000, 1000), 16_000_000, 1, (8000, 500)),
    ])
    func scaleDownAspect(source: (Int, Int), limit: Int, frames: Int, expected: (Int, Int)) {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = limit
        #expect(options.targetPixelSize(for: Self.size(source.0, source.1), frameCount: frames) == Self.size(expected.0, expected.1))
    }

    @Test("scale-down fits the budget, within a pixel of the ideal size", arguments: [
        (5000, 3000), (3001, 7919), (12_345, 678), (640, 480), (100_000, 100_000), (65_535, 1),
    ], [1_000_000, 4_194_304, 10_000_000, 60 * 1024 * 1024])
    func scaleDownFitsBudget(source: (Int, Int), limit: Int) {
        for frames in [1, 2, 7] {
            var options = ImageDecodeOptions()
            options.scaleDownLimitBytes = limit
            let target = options.targetPixelSize(for: Self.size(source.0, source.1), frameCount: frames)
            let budget = Double(limit) / Double(frames) / 4
            let sourcePixels = Double(source.0) * Double(source.1)
            #expect(target.width >= 1 && target.height >= 1)
            #expect(target.width <= source.0 && target.height <= source.1)
            if sourcePixels <= budget {
                #expect(target == Self.size(source.0, source.1))
            } else {
                let ratio = (budget / sourcePixels).squareRoot()
                #expect(Double(target.width) * Double(target.height) <= budget || target.width == 1 || target.height == 1)
                #expect(abs(Double(target.width) - Double(source.0) * ratio) < 1 || target.width == 1)
                #expect(abs(Double(target.height) - Double(source.1) * ratio) < 1 || target.height == 1)
            }
        }
    }

    @Test("a tiny limit gives at least 1x1", arguments: [1, 3, 4, 7])
    func scaleDownTinyLimit(_ limit: Int) {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = limit
        #expect(options.targetPixelSize(for: Self.size(1000, 1000)) == Self.size(1, 1))
        #expect(options.targetPixelSize(for: Self.size(1000, 1000), frameCount: 50) == Self.size(1, 1))
        // A thin source cannot go below one pixel on its short side.
        let thin = options.targetPixelSize(for: Self.size(10_000, 10), frameCount: 50)
        #expect(thin.height == 1)
        #expect(thin.width >= 1 && thin.width < 10)
    }

    @Test("a zero or negative limit is no limit", arguments: [0, -1, Int.min])
    func scaleDownNoLimit(_ limit: Int) {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = limit
        #expect(options.targetPixelSize(for: Self.size(10_000, 10_000)) == Self.size(10_000, 10_000))
    }

    @Test("a frame count below 1 counts as one frame", arguments: [0, -1, -100])
    func scaleDownFrameCountBelowOne(_ frames: Int) {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 4_000_000
        #expect(options.targetPixelSize(for: Self.size(4000, 4000), frameCount: frames) == Self.size(1000, 1000))
    }

    @Test func thumbnailThenScaleDown() {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = Self.size(2000, 2000)
        options.scaleDownLimitBytes = 4_000_000
        // The thumbnail gives 2000x1000 (2 Mpx); the budget of 1 Mpx halves the area.
        let target = options.targetPixelSize(for: Self.size(8000, 4000))
        #expect(target == Self.size(1414, 707))
        // A thumbnail already under the budget is left alone.
        options.thumbnailPixelSize = Self.size(500, 500)
        #expect(options.targetPixelSize(for: Self.size(8000, 4000)) == Self.size(500, 250))
    }

    // MARK: - scaleFactor(fromKey:)

    @Test("scale factor from a key", arguments: [
        ("https://example.com/images/logo@2x.png", 2.0),
        ("https://example.com/images/logo@3x.png", 3),
        ("logo@2x.jpg", 2), ("logo@3x.webp", 3), ("/path/to/icon@2x.png?size=large", 2),
        ("logo.png", 1), ("logo@2x", 1), ("logo@3x", 1), ("logo@4x.png", 1), ("logo@1x.png", 1), ("logo@x.png", 1),
        ("logo2x.png", 1), ("", 1), ("@2x.", 2), ("@3x.", 3),
    ])
    func scaleFactorFromKey(_ key: String, _ expected: Double) {
        #expect(ImageDecodeOptions.scaleFactor(fromKey: key) == expected)
    }

    // MARK: - init(options:context:cacheKey:)

    @Test func emptyRequestGivesDefaults() {
        let options = ImageDecodeOptions(options: [], context: WebImageContext())
        #expect(options.scaleFactor == 1)
        #expect(options.thumbnailPixelSize == nil)
        #expect(options.preserveAspectRatio)
        #expect(options.firstFrameOnly == false)
        #expect(options.preloadAllFrames == false)
        #expect(options.scaleDownLimitBytes == nil)
        #expect(options.maxPixelCount == ImageDecodeOptions.defaultMaxPixelCount)
    }

    @Test("scale factor from the cache key", arguments: [("a@2x.png", 2.0), ("a@3x.png", 3), ("a.png", 1)])
    func scaleFromCacheKey(_ key: String, _ expected: Double) {
        #expect(ImageDecodeOptions(options: [], context: WebImageContext(), cacheKey: key).scaleFactor == expected)
    }

    @Test func scaleFromTheContextsCacheKey() {
        let context = WebImageContext { $0.imageCacheKey = "https://example.com/a@3x.png" }
        #expect(ImageDecodeOptions(options: [], context: context).scaleFactor == 3)
        // An explicit cache key wins over the context's.
        #expect(ImageDecodeOptions(options: [], context: context, cacheKey: "https://example.com/a@2x.png").scaleFactor == 2)
        #expect(ImageDecodeOptions(options: [], context: context, cacheKey: "https://example.com/a.png").scaleFactor == 1)
    }

    @Test("context.imageScaleFactor beats the key's @2x", arguments: [(1.0, 1.0), (3, 3), (2.5, 2.5), (0.5, 1), (0, 1), (-3, 1)])
    func contextScaleBeatsKey(_ scale: Double, _ expected: Double) {
        let context = WebImageContext { $0.imageScaleFactor = scale }
        #expect(ImageDecodeOptions(options: [], context: context, cacheKey: "a@2x.png").scaleFactor == expected)
        #expect(ImageDecodeOptions(options: [], context: context).scaleFactor == expected)
    }

    @Test func imageDecodeOptionsPassThrough() {
        var base = ImageDecodeOptions()
        base.scaleFactor = 4
        base.thumbnailPixelSize = Self.size(10, 10)
        base.preserveAspectRatio = false
        base.firstFrameOnly = true
        base.scaleDownLimitBytes = 5000
        base.fileExtensionHint = "png"
        base.applyOrientation = false
        base.maxPixelCount = 1234
        base.preloadAllFrames = true
        let context = WebImageContext { $0.imageDecodeOptions = base }
        let options = ImageDecodeOptions(options: [], context: context)
        #expect(options.scaleFactor == 4)
        #expect(options.thumbnailPixelSize == Self.size(10, 10))
        #expect(options.preserveAspectRatio == false)
        #expect(options.firstFrameOnly)
        #expect(options.scaleDownLimitBytes == 5000)
        #expect(options.fileExtensionHint == "png")
        #expect(options.applyOrientation == false)
        #expect(options.maxPixelCount == 1234)
        #expect(options.preloadAllFrames)
    }

    @Test func imageDecodeOptionsBeatTheKey() {
        var base = ImageDecodeOptions()
        base.scaleFactor = 4
        let context = WebImageContext { $0.imageDecodeOptions = base }
        #expect(ImageDecodeOptions(options: [], context: context, cacheKey: "a@2x.png").scaleFactor == 4)
    }

    @Test func individualContextKeysBeatImageDecodeOptions() {
        var base = ImageDecodeOptions()
        base.scaleFactor = 4
        base.thumbnailPixelSize = Self.size(10, 10)
        base.preserveAspectRatio = false
        base.scaleDownLimitBytes = 5000
        let context = WebImageContext {
            $0.imageDecodeOptions = base
            $0.imageScaleFactor = 2
            $0.imageThumbnailPixelSize = Self.size(20, 30)
            $0.imagePreserveAspectRatio = true
            $0.imageScaleDownLimitBytes = 7000
        }
        let options = ImageDecodeOptions(options: [.scaleDownLargeImages], context: context, cacheKey: "a@3x.png")
        #expect(options.scaleFactor == 2)
        #expect(options.thumbnailPixelSize == Self.size(20, 30))
        #expect(options.preserveAspectRatio)
        #expect(options.scaleDownLimitBytes == 7000)
    }

    /// The three decode limits have context keys of their own, which beat `imageDecodeOptions`.
    @Test func limitKeysBeatImageDecodeOptions() {
        var base = ImageDecodeOptions()
        base.maxPixelCount = 11
        base.maxTotalPixelCount = 22
        base.maxFrameCount = 33
        let unset = ImageDecodeOptions(options: [], context: WebImageContext { $0.imageDecodeOptions = base })
        #expect(unset.maxPixelCount == 11 && unset.maxTotalPixelCount == 22 && unset.maxFrameCount == 33)
        let context = WebImageContext {
            $0.imageDecodeOptions = base
            $0.imageMaxPixelCount = 1_000
            $0.imageMaxTotalPixelCount = 2_000
            $0.imageMaxFrameCount = 3
        }
        let options = ImageDecodeOptions(options: [], context: context)
        #expect(options.maxPixelCount == 1_000)
        #expect(options.maxTotalPixelCount == 2_000)
        #expect(options.maxFrameCount == 3)
        let alone = ImageDecodeOptions(options: [], context: WebImageContext { $0.imageMaxPixelCount = 640 * 480 })
        #expect(alone.maxPixelCount == 640 * 480)
        #expect(alone.maxTotalPixelCount == ImageDecodeOptions.defaultMaxTotalPixelCount)
    }

    @Test func individualKeysOverDefaults() {
        let context = WebImageContext {
            $0.imageThumbnailPixelSize = Self.size(64, 48)
            $0.imagePreserveAspectRatio = false
        }
        let options = ImageDecodeOptions(options: [], context: context)
        #expect(options.thumbnailPixelSize == Self.size(64, 48))
        #expect(options.preserveAspectRatio == false)
        #expect(options.targetPixelSize(for: Self.size(640, 640)) == Self.size(64, 48))
    }

    static let optionFlagCases: [(WebImageOptions, Bool, Bool, Bool)] = [
        (.decodeFirstFrameOnly, true, false, false),
        (.preloadAllFrames, false, true, false),
        (.scaleDownLargeImages, false, false, true),
        ([.decodeFirstFrameOnly, .preloadAllFrames, .scaleDownLargeImages], true, true, true),
        ([.retryFailed, .highPriority, .progressiveLoad], false, false, false),
        ([], false, false, false),
    ]

    @Test("option flags map to fields", arguments: optionFlagCases)
    func optionFlags(_ flags: WebImageOptions, firstFrameOnly: Bool, preloadAllFrames: Bool, scaleDown: Bool) {
        let options = ImageDecodeOptions(options: flags, context: WebImageContext())
        #expect(options.firstFrameOnly == firstFrameOnly)
        #expect(options.preloadAllFrames == preloadAllFrames)
        #expect(options.scaleDownLimitBytes == (scaleDown ? 60 * 1024 * 1024 : nil))
    }

    @Test func scaleDownLimitPrecedence() {
        // The context key, then imageDecodeOptions, then the 60 MB default.
        let keyed = WebImageContext { $0.imageScaleDownLimitBytes = 1000 }
        #expect(ImageDecodeOptions(options: .scaleDownLargeImages, context: keyed).scaleDownLimitBytes == 1000)

        var base = ImageDecodeOptions()
        base.scaleDownLimitBytes = 5000
        let viaOptions = WebImageContext { $0.imageDecodeOptions = base }
        #expect(ImageDecodeOptions(options: .scaleDownLargeImages, context: viaOptions).scaleDownLimitBytes == 5000)

        #expect(ImageDecodeOptions(options: .scaleDownLargeImages, context: WebImageContext()).scaleDownLimitBytes == ImageDecodeOptions.defaultScaleDownLimitBytes)
    }

    @Test func flagsFromImageDecodeOptionsSurviveWithoutTheOptions() {
        var base = ImageDecodeOptions()
        base.firstFrameOnly = true
        base.preloadAllFrames = true
        let options = ImageDecodeOptions(options: [], context: WebImageContext { $0.imageDecodeOptions = base })
        #expect(options.firstFrameOnly)
        #expect(options.preloadAllFrames)
    }

    @Test func theRequestContextIsCarried() {
        var base = ImageDecodeOptions()
        base.context = WebImageContext { $0.setImageOperationKey = "stale" }
        let context = WebImageContext {
            $0.imageDecodeOptions = base
            $0.imageCacheKey = "request-key"
            $0.setImageOperationKey = "fresh"
        }
        let options = ImageDecodeOptions(options: [], context: context)
        #expect(options.context.imageCacheKey == "request-key")
        #expect(options.context.setImageOperationKey == "fresh")
    }
}
