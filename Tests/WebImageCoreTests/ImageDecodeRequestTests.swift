import Dispatch
import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// ``ImageDecodeRequest``, the decode stage every loader and cache hands its bytes to: how it
/// resolves its key, coder and decode options, what it makes of loaded and cached bytes, how it
/// shapes images, when it decodes incrementally, and when two requests may share a decode.
@Suite struct ImageDecodeRequestTests {
    let url = URL(string: "https://example.com/images/photo.png")!
    let magic: [UInt8] = [0xAB, 0xCD]
    let coder: MockImageCoder
    let data: Data

    init() {
        coder = MockImageCoder(name: "default", magic: magic, format: .png)
        data = Data(magic + [1, 2, 3, 4])
    }

    func request(key: String? = nil, url: URL? = nil, options: WebImageOptions = [], context: WebImageContext = WebImageContext(), coder: (any ImageCoder)? = nil, fileExtensionHint: String? = nil) -> ImageDecodeRequest {
        ImageDecodeRequest(key: key, url: url, options: options, context: context, defaultCoder: coder ?? self.coder, fileExtensionHint: fileExtensionHint)
    }

    // MARK: - Key, scale, hint, coder

    @Test func anExplicitKeyWinsOverTheContextsKeyTheFilterAndTheURL() {
        let context = WebImageContext {
            $0.imageCacheKey = "context-key"
            $0.cacheKeyFilter = .closure { _ in "filtered" }
        }
        #expect(request(key: "explicit", url: url, context: context).key == "explicit")
    }

    @Test func theContextsCacheKeyWinsOverTheFilterAndTheURL() {
        let context = WebImageContext {
            $0.imageCacheKey = "context-key"
            $0.cacheKeyFilter = .closure { _ in "filtered" }
        }
        #expect(request(url: url, context: context).key == "context-key")
    }

    @Test func theFiltersKeyWinsOverTheURL() {
        let context = WebImageContext { $0.cacheKeyFilter = .closure { "filtered:\($0.lastPathComponent)" } }
        #expect(request(url: url, context: context).key == "filtered:photo.png")
    }

    @Test func theURLIsTheKeyWhenNothingElseNamesOne() {
        #expect(request(url: url).key == url.absoluteString)
        let nilFilter = WebImageContext { $0.cacheKeyFilter = .closure { _ in nil } }
        #expect(request(url: url, context: nilFilter).key == url.absoluteString, "a filter that returns nil falls back to the URL")
        #expect(request().key == "", "no key and no URL")
    }

    @Test("the scale factor comes from @2x. / @3x. in the key", arguments: [
        ("https://example.com/icon@2x.png", 2.0),
        ("https://example.com/icon@3x.png", 3.0),
        ("https://example.com/icon.png", 1.0),
        ("https://example.com/icon@2x", 1.0),
    ])
    func scaleFactorFromTheKey(key: String, expected: Double) {
        #expect(request(key: key).decodeOptions.scaleFactor == expected)
        #expect(request(url: URL(string: key)!).decodeOptions.scaleFactor == expected, "the URL as the default key")
    }

    @Test func theContextsScaleFactorWinsOverTheKey() {
        #expect(request(key: "icon@3x.png", context: WebImageContext { $0.imageScaleFactor = 2 }).decodeOptions.scaleFactor == 2)
        #expect(request(key: "icon@2x.png", context: WebImageContext { $0.imageScaleFactor = 1 }).decodeOptions.scaleFactor == 1)
    }

    @Test func theFileExtensionHintComesFromTheURLLowercased() {
        #expect(request(url: URL(string: "https://example.com/a/b.PNG?size=2")!).decodeOptions.fileExtensionHint == "png")
        #expect(request(url: URL(string: "https://example.com/a/b")!).decodeOptions.fileExtensionHint == nil)
        #expect(request(key: "b.gif").decodeOptions.fileExtensionHint == nil, "the key is not a file name")
    }

    @Test func anExplicitHintWinsOverTheContextsAndTheURLs() {
        var decodeOptions = ImageDecodeOptions()
        decodeOptions.fileExtensionHint = "gif"
        let context = WebImageContext { $0.imageDecodeOptions = decodeOptions }
        #expect(request(url: url, context: context).decodeOptions.fileExtensionHint == "gif", "the context's hint wins over the URL's")
        #expect(request(url: url, context: context, fileExtensionHint: "webp").decodeOptions.fileExtensionHint == "webp")
    }

    @Test func theContextsCoderWinsOverTheDefaultCoder() throws {
        let contextCoder = MockImageCoder(name: "context", magic: magic, format: .png)
        let stage = request(url: url, context: WebImageContext { $0.imageCoder = contextCoder })
        #expect((stage.coder as? MockImageCoder) === contextCoder)
        let image = try #require(try stage.decodeLoadedData(data))
        #expect(MockImageCoder.decoderName(of: image) == "context")
        #expect(coder.decodeCount == 0)
        #expect((request(url: url).coder as? MockImageCoder) === coder)
    }

    // MARK: - Loaded bytes

    @Test func loadedDataDecodesWithTheRequestsOptions() throws {
        let stage = request(key: "photo@2x.png", url: url)
        let image = try #require(try stage.decodeLoadedData(data))
        #expect(image.scale == 2)
        #expect(image.pixelSize == TestImages.gradient().size)
        #expect(coder.calls.all == [.decode(byteCount: data.count)])
    }

    @Test func emptyLoadedDataIsBadImageDataNamingTheURL() {
        let error = #expect(throws: WebImageError.self) { try request(url: url).decodeLoadedData(Data()) }
        #expect(error?.code == .badImageData)
        #expect(error?.url == url)
        #expect(error?.message.contains(url.absoluteString) == true, "\(error?.message ?? "")")
        #expect(coder.decodeCount == 0)
    }

    @Test func emptyLoadedDataWithoutAURLNamesTheKey() {
        let error = #expect(throws: WebImageError.self) { try request(key: "some-key").decodeLoadedData(Data()) }
        #expect(error?.message.contains("some-key") == true, "\(error?.message ?? "")")
    }

    @Test func avoidDecodeImageGivesNoImageAndDoesNotDecode() throws {
        let stage = request(url: url, options: .avoidDecodeImage)
        #expect(stage.decodesImage == false)
        #expect(try stage.decodeLoadedData(data) == nil)
        #expect(coder.decodeCount == 0)
    }

    @Test func aCoderErrorGetsTheURLFilledIn() {
        coder.error = WebImageError(.imageTooLarge, "too large")
        let error = #expect(throws: WebImageError.self) { try request(url: url).decodeLoadedData(data) }
        #expect(error?.code == .imageTooLarge)
        #expect(error?.message == "too large")
        #expect(error?.url == url)
    }

    @Test func aCoderErrorsOwnURLIsKept() {
        let other = URL(string: "https://example.com/other.png")!
        coder.error = WebImageError(.badImageData, "bad", url: other)
        let error = #expect(throws: WebImageError.self) { try request(url: url).decodeLoadedData(data) }
        #expect(error?.url == other)
    }

    @Test func anErrorThatIsNotAWebImageErrorBecomesBadImageData() {
        let stage = request(url: url, coder: StubCoder { _, _ in throw StubFailure() })
        let error = #expect(throws: WebImageError.self) { try stage.decodeLoadedData(data) }
        #expect(error?.code == .badImageData)
        #expect(error?.url == url)
        #expect(error?.underlyingError is StubFailure)
        #expect(error?.message.contains(url.absoluteString) == true)
    }

    @Test func anImageOfZeroPixelsIsBadImageData() {
        let stage = request(url: url, coder: StubCoder { _, _ in try Self.emptyImage() })
        let error = #expect(throws: WebImageError.self) { try stage.decodeLoadedData(data) }
        #expect(error?.code == .badImageData)
        #expect(error?.url == url)
    }

    @Test func decodeFirstFrameOnlyMakesAnAnimatedResultStill() throws {
        let coder = StubCoder { _, _ in TestImages.animated(frames: 4) }
        let animated = try #require(try request(url: url, coder: coder).decodeLoadedData(data))
        #expect(animated.frameCount == 4, "a coder that ignores firstFrameOnly")
        let still = try #require(try request(url: url, options: .decodeFirstFrameOnly, coder: coder).decodeLoadedData(data))
        #expect(still.frameCount == 1)
        #expect(still.pixelSize == animated.pixelSize)
        #expect(coder.seenOptions.last?.firstFrameOnly == true, "the coder is asked for the first frame too")
    }

    @Test func decodingOnAnExecutorGivesTheSameResult() async throws {
        let executor = BlockingWorkExecutor(name: "test", width: 1)
        let stage = request(key: "photo@3x.png", url: url)
        let direct = try #require(try stage.decodeLoadedData(data))
        let onExecutor = try #require(try await stage.decodeLoadedData(data, on: executor))
        #expect(onExecutor.pixelSize == direct.pixelSize)
        #expect(onExecutor.scale == 3)
        #expect(MockImageCoder.decoderName(of: onExecutor) == "default")
        #expect(try await request(url: url, options: .avoidDecodeImage).decodeLoadedData(data, on: executor) == nil)
        let empty = await #expect(throws: WebImageError.self) { try await stage.decodeLoadedData(Data(), on: executor) }
        #expect(empty?.code == .badImageData)
        coder.error = WebImageError(.imageTooLarge, "too large")
        let failed = await #expect(throws: WebImageError.self) { try await stage.decodeLoadedData(data, on: executor) }
        #expect(failed?.code == .imageTooLarge)
        #expect(failed?.url == url)
    }

    @Test func aTaskCancelledBeforeTheDecodeStartsGetsCancelled() async throws {
        let executor = BlockingWorkExecutor(name: "test", width: 1)
        let occupied = OccupiedExecutor(executor)
        await occupied.waitUntilRunning()
        let stage = request(url: url)
        let decode = Task { try await stage.decodeLoadedData(data, on: executor) }
        while executor.pendingCount < 1 { await Task.yield() }
        decode.cancel()
        let error = await #expect(throws: WebImageError.self) { try await decode.value }
        #expect(error?.code == .cancelled)
        #expect(error?.url == url)
        await occupied.release()
        #expect(coder.decodeCount == 0, "a dropped job never decodes")
    }

    // MARK: - Cached bytes

    @Test func cachedDataDecodesToAnImage() {
        let result = request(key: "photo@2x.png").decodeCachedData(data)
        #expect(result.verdict == .image)
        #expect(result.image?.scale == 2)
    }

    @Test func emptyCachedDataIsRemoved() {
        let result = request(url: url).decodeCachedData(Data())
        #expect(result.verdict == .remove(.badImageData))
        #expect(result.error?.url == url)
        #expect(result.image == nil)
    }

    @Test func cachedDataOfNoKnownFormatIsRemoved() throws {
        let junk = Data("this is not an image at all".utf8)
        try #require(ImageFormat.detect(junk) == .undefined)
        try #require(coder.canDecode(junk) == false)
        let result = request(url: url).decodeCachedData(junk)
        #expect(result.verdict == .remove(.unsupportedFormat))
        #expect(coder.decodeCount == 0)
    }

    @Test func cachedDataOfAKnownFormatWithoutItsCoderIsKept() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [UInt8](repeating: 0, count: 17))
        try #require(ImageFormat.detect(png) == .png)
        try #require(coder.canDecode(png) == false)
        let result = request(url: url).decodeCachedData(png)
        #expect(result.verdict == .keep(.unsupportedFormat))
        #expect(result.error?.message.contains("png") == true, "\(result.error?.message ?? "")")
    }

    @Test func cachedDataTooLargeForTheseOptionsIsKept() {
        coder.error = WebImageError(.imageTooLarge, "over the pixel limit")
        #expect(request(url: url).decodeCachedData(data).verdict == .keep(.imageTooLarge))
    }

    @Test func aCancelledCachedDecodeIsKept() {
        let stage = request(url: url, coder: StubCoder { _, _ in throw CancellationError() })
        #expect(stage.decodeCachedData(data).verdict == .keep(.cancelled), "a coder's CancellationError leaves the bytes alone")
        coder.error = .cancelled()
        #expect(request(url: url).decodeCachedData(data).verdict == .keep(.cancelled))
    }

    @Test func corruptCachedDataIsRemoved() {
        coder.error = WebImageError(.badImageData, "truncated")
        let result = request(url: url).decodeCachedData(data)
        #expect(result.verdict == .remove(.badImageData))
        #expect(result.error?.message == "truncated")
        let stage = request(url: url, coder: StubCoder { _, _ in throw StubFailure() })
        #expect(stage.decodeCachedData(data).verdict == .remove(.badImageData), "an error that is not a WebImageError")
    }

    @Test func cachedDataOfZeroPixelsIsRemoved() {
        let stage = request(url: url, coder: StubCoder { _, _ in try Self.emptyImage() })
        #expect(stage.decodeCachedData(data).verdict == .remove(.badImageData))
    }

    @Test func theExtendedDataIsSetOnTheImage() {
        let extended = Data("stored with the image".utf8)
        #expect(request(url: url).decodeCachedData(data, extendedData: extended).image?.extendedData == extended)
        #expect(request(url: url).decodeCachedData(data).image?.extendedData == Data("default".utf8), "without it, the coder's is kept")
    }

    @Test func cachedDataIsShapedForTheRequest() {
        let coder = StubCoder { _, _ in TestImages.animated(frames: 3) }
        #expect(request(url: url, coder: coder).decodeCachedData(data).image?.frameCount == 3)
        #expect(request(url: url, options: .decodeFirstFrameOnly, coder: coder).decodeCachedData(data).image?.frameCount == 1)
    }

    @Test func anAnimationHeldTheOtherWayIsKeptAsAMiss() {
        // An animation held eagerly, for a request that wants lazily held frames.
        let stage = request(url: url, options: .matchAnimatedImageClass, coder: StubCoder { _, _ in TestImages.animated(frames: 3) })
        let result = stage.decodeCachedData(data)
        #expect(result.verdict == .keep(.cacheMiss))
        #expect(result.image == nil)
        let preloading = request(url: url, options: [.matchAnimatedImageClass, .preloadAllFrames], coder: StubCoder { _, _ in TestImages.animated(frames: 3) })
        #expect(preloading.decodeCachedData(data).verdict == .image)
    }

    @Test func cachedDecodingOnAnExecutorGivesTheSameResult() async {
        let executor = BlockingWorkExecutor(name: "test", width: 1)
        let stage = request(key: "photo@2x.png", url: url)
        let result = await stage.decodeCachedData(data, extendedData: Data("x".utf8), on: executor)
        #expect(result.verdict == .image)
        #expect(result.image?.scale == 2)
        #expect(result.image?.extendedData == Data("x".utf8))
        #expect(await stage.decodeCachedData(Data(), on: executor).verdict == .remove(.badImageData))
    }

    @Test func aCachedDecodeCancelledBeforeItStartsKeepsTheBytes() async {
        let executor = BlockingWorkExecutor(name: "test", width: 1)
        let occupied = OccupiedExecutor(executor)
        await occupied.waitUntilRunning()
        let stage = request(url: url)
        let decode = Task { await stage.decodeCachedData(data, on: executor) }
        while executor.pendingCount < 1 { await Task.yield() }
        decode.cancel()
        #expect(await decode.value.verdict == .keep(.cancelled))
        await occupied.release()
        #expect(coder.decodeCount == 0)
    }

    // MARK: - Shaping

    @Test func aStillImageIsNeverReshaped() throws {
        let still = TestImages.still()
        for options: WebImageOptions in [[], .decodeFirstFrameOnly, .matchAnimatedImageClass, [.matchAnimatedImageClass, .preloadAllFrames]] {
            let shaped = try #require(ImageDecodeRequest.shaped(still, options: options))
            #expect(shaped.frameCount == 1)
            #expect(shaped.pixelSize == still.pixelSize)
        }
    }

    @Test func decodeFirstFrameOnlyKeepsTheFirstFrame() throws {
        var animated = TestImages.animated(frames: 3)
        animated.extendedData = Data("extended".utf8)
        let shaped = try #require(ImageDecodeRequest.shaped(animated, options: .decodeFirstFrameOnly))
        #expect(shaped.frameCount == 1)
        #expect(shaped.bitmap.bytes == animated.bitmap.bytes)
        #expect(shaped.extendedData == animated.extendedData)
        #expect(ImageDecodeRequest.shaped(animated, options: [])?.frameCount == 3)
    }

    @Test("matchAnimatedImageClass: lazy frames without preloadAllFrames, eager ones with it", arguments: [
        // lazily held, preloadAllFrames, matches
        (false, false, false),
        (false, true, true),
        (true, false, true),
        (true, true, false),
    ])
    func matchAnimatedImageClass(lazy: Bool, preload: Bool, matches: Bool) throws {
        let image = lazy ? try Self.lazyAnimation() : TestImages.animated(frames: 3)
        try #require(image.isLazilyAnimated == lazy)
        let options: WebImageOptions = preload ? [.matchAnimatedImageClass, .preloadAllFrames] : .matchAnimatedImageClass
        #expect((ImageDecodeRequest.shaped(image, options: options) != nil) == matches)
        #expect(ImageDecodeRequest.shaped(image, options: preload ? .preloadAllFrames : []) != nil, "without the option every image matches")
        #expect(ImageDecodeRequest.shaped(image, options: options.union(.decodeFirstFrameOnly))?.frameCount == 1, "a first frame is still, and a still image always matches")
    }

    @Test func theInstanceShapesWithItsOptions() throws {
        let image = TestImages.animated(frames: 3)
        #expect(request(options: .decodeFirstFrameOnly).shaped(image)?.frameCount == 1)
        #expect(request(options: .matchAnimatedImageClass).shaped(image) == nil)
        #expect(request().shaped(image)?.frameCount == 3)
    }

    // MARK: - Progressive loading

    @Test func aCoderThatIsNotProgressiveMakesNoIncrementalDecoder() {
        let stage = request(url: url, options: .progressiveLoad)
        #expect(stage.supportsIncrementalDecoding == false)
        #expect(stage.makeIncrementalDecoder(for: data) == nil)
    }

    @Test func aProgressiveCoderMakesAnIncrementalDecoder() throws {
        let bytes = try RawBitmapCoder().encode(TestImages.still(), as: .rawBitmap, options: ImageEncodeOptions())
        let stage = request(key: "photo@2x.wiraw", url: url, options: .progressiveLoad, coder: RawBitmapCoder())
        #expect(stage.supportsIncrementalDecoding)
        let decoder = try #require(stage.makeIncrementalDecoder(for: bytes.prefix(4)))
        decoder.update(data: bytes, finished: true)
        let image = try #require(decoder.currentImage())
        #expect(image.pixelSize == TestImages.still().pixelSize)
        #expect(image.scale == 2, "the decoder gets the request's decode options")
        #expect(stage.makeIncrementalDecoder(for: Data("GIF89a".utf8)) == nil, "data the coder cannot decode incrementally")
    }

    @Test func avoidDecodeImageMakesNoIncrementalDecoder() throws {
        let bytes = try RawBitmapCoder().encode(TestImages.still(), as: .rawBitmap, options: ImageEncodeOptions())
        let stage = request(url: url, options: [.progressiveLoad, .avoidDecodeImage], coder: RawBitmapCoder())
        #expect(stage.supportsIncrementalDecoding == false)
        #expect(stage.makeIncrementalDecoder(for: bytes) == nil)
    }

    // MARK: - Sharing

    @Test func equalDecodeSettingsShareADecode() throws {
        let make = {
            self.request(key: "k@2x.png", url: self.url, options: [.decodeFirstFrameOnly, .scaleDownLargeImages], context: WebImageContext {
                $0.imageCoder = self.coder
                $0.imageThumbnailPixelSize = PixelSize(width: 100, height: 100)
                $0.imagePreserveAspectRatio = false
                $0.imageScaleDownLimitBytes = 1 << 20
            })
        }
        let first = try #require(make().sharingKey)
        let second = try #require(make().sharingKey)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        let empty = try #require(request(url: url).sharingKey)
        #expect(empty == request(url: url).sharingKey, "an empty context")
    }

    @Test func aDifferentThumbnailSizeDoesNotShare() {
        let small = request(url: url, context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 50, height: 50) })
        let large = request(url: url, context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 500, height: 500) })
        let full = request(url: url)
        #expect(small.sharingKey != nil)
        #expect(small.sharingKey != large.sharingKey)
        #expect(small.sharingKey != full.sharingKey)
    }

    @Test func aDifferentCoderInstanceDoesNotShare() {
        let other = MockImageCoder(name: "default", magic: magic, format: .png)
        let mine = request(url: url, context: WebImageContext { $0.imageCoder = coder })
        let same = request(url: url, context: WebImageContext { $0.imageCoder = coder })
        let theirs = request(url: url, context: WebImageContext { $0.imageCoder = other })
        #expect(mine.sharingKey != nil)
        #expect(mine.sharingKey == same.sharingKey)
        #expect(mine.sharingKey != theirs.sharingKey)
    }

    @Test func decodeFirstFrameOnlyDoesNotShareWithAFullDecode() {
        #expect(request(url: url).sharingKey != request(url: url, options: .decodeFirstFrameOnly).sharingKey)
        #expect(request(url: url).sharingKey != request(url: url, options: .preloadAllFrames).sharingKey)
        #expect(request(url: url).sharingKey != request(url: url, options: .avoidDecodeImage).sharingKey)
    }

    @Test func aDifferentScaleDoesNotShare() {
        let one = request(url: url, context: WebImageContext { $0.imageScaleFactor = 1 })
        let two = request(url: url, context: WebImageContext { $0.imageScaleFactor = 2 })
        #expect(one.sharingKey != nil)
        #expect(one.sharingKey != two.sharingKey)
        #expect(request(key: "a@2x.png").sharingKey != request(key: "a@3x.png").sharingKey, "the scale from the key")
    }

    @Test func flagsThatDoNotChangeTheDecodeStillShare() {
        let plain = request(url: url)
        for flag: WebImageOptions in [.progressiveLoad, .refreshCached, .lowPriority, .highPriority, .retryFailed, .fromLoaderOnly, .waitStoreCache, .transformAnimatedImage] {
            #expect(plain.sharingKey == request(url: url, options: flag).sharingKey, "\(flag.rawValue)")
        }
    }

    @Test func onlyALoadOrNoneKeyDiffersStillShares() {
        let mine = request(url: url, context: WebImageContext {
            $0.imageCache = MockImageCache(name: "a")
            $0.imageLoader = MockImageLoader(name: "a")
            $0.storeCacheType = .memory
            $0.callbackQueue = .immediate
            $0.setImageOperationKey = "view-1"
            $0.cacheSerializer = .closure { _, data, _ in data }
            $0.imageTransformer = MockImageTransformer(key: "T1")
        })
        let theirs = request(url: url, context: WebImageContext {
            $0.imageCache = MockImageCache(name: "b")
            $0.storeCacheType = .disk
            $0.callbackQueue = .queue(DispatchQueue(label: "other"))
            $0.setImageOperationKey = "view-2"
            $0.optionsProcessor = .closure { _, _, _ in nil }
        })
        #expect(mine.sharingKey != nil, "incomparable load and none values are not compared")
        #expect(mine.sharingKey == theirs.sharingKey)
        #expect(mine.sharingKey == request(url: url).sharingKey)
    }

    @Test func anUndeclaredPlugInKeyMakesTheDecodeItsOwn() {
        let stage = request(url: url, context: WebImageContext { $0[UndeclaredDecodeTestKey.self] = 1 })
        #expect(stage.sharingKey == nil)
    }

    @Test func aDecodeKeyHoldingAValueThatIsNotHashableMakesTheDecodeItsOwn() {
        let options = request(url: url, context: WebImageContext { $0.imageDecodeOptions = ImageDecodeOptions() })
        #expect(options.sharingKey == nil, "ImageDecodeOptions is a struct that is not Hashable")
        let plugIn = request(url: url, context: WebImageContext { $0[OpaqueDecodeTestKey.self] = OpaqueSetting(body: { $0 }) })
        #expect(plugIn.sharingKey == nil)
        let structCoder = request(url: url, context: WebImageContext { $0.imageCoder = RawBitmapCoder() })
        #expect(structCoder.sharingKey == nil, "a coder that is a struct cannot be compared")
    }

    @Test func aDeclaredPlugInDecodeKeyComparesByValue() {
        let one = request(url: url, context: WebImageContext { $0[HashableDecodeTestKey.self] = "lossless" })
        let same = request(url: url, context: WebImageContext { $0[HashableDecodeTestKey.self] = "lossless" })
        let other = request(url: url, context: WebImageContext { $0[HashableDecodeTestKey.self] = "lossy" })
        #expect(one.sharingKey != nil)
        #expect(one.sharingKey == same.sharingKey)
        #expect(one.sharingKey != other.sharingKey)
        #expect(one.sharingKey != request(url: url).sharingKey)
    }

    // MARK: - Helpers

    /// An image of 0x0 pixels, which no real coder should return.
    static func emptyImage() throws -> WebImage {
        WebImage(bitmap: try Bitmap(width: 0, height: 0))
    }

    /// An animation whose frames come lazily from a coder.
    static func lazyAnimation() throws -> WebImage {
        let coder = RawBitmapCoder()
        let bytes = try coder.encode(TestImages.animated(frames: 3), as: .rawBitmap, options: ImageEncodeOptions())
        return try coder.decode(bytes, options: ImageDecodeOptions())
    }
}

/// What a cached decode came to, comparable in one `#expect`.
enum CachedVerdict: Equatable {
    case image
    case keep(WebImageError.Code)
    case remove(WebImageError.Code)
}

extension CachedDataDecodeResult {
    var verdict: CachedVerdict {
        switch self {
        case .image: .image
        case .keep(let error): .keep(error.code)
        case .remove(let error): .remove(error.code)
        }
    }

    var isKeep: Bool {
        if case .keep = self { return true }
        return false
    }

    var error: WebImageError? {
        switch self {
        case .image: nil
        case .keep(let error), .remove(let error): error
        }
    }
}

/// A coder that takes any data and answers with a closure; it records the options it got.
private final class StubCoder: ImageCoder {
    private let body: @Sendable (Data, ImageDecodeOptions) throws -> WebImage
    private let seen = Locked<[ImageDecodeOptions]>([])

    init(_ body: @escaping @Sendable (Data, ImageDecodeOptions) throws -> WebImage) {
        self.body = body
    }

    var seenOptions: [ImageDecodeOptions] { seen.withLock { $0 } }

    func canDecode(_ data: Data) -> Bool { true }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        seen.withLock { $0.append(options) }
        return try body(data, options)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.encodingFailed, "StubCoder does not encode")
    }
}

/// An error that is not a ``WebImageError``.
private struct StubFailure: Error {}

/// Holds the only slot of a width-1 executor with a job that blocks until released, so that
/// the next job waits in the queue.
private final class OccupiedExecutor: Sendable {
    private let executor: BlockingWorkExecutor
    private let gate = DispatchSemaphore(value: 0)
    private let job: Task<Void, Never>

    init(_ executor: BlockingWorkExecutor) {
        self.executor = executor
        let gate = gate
        job = Task { _ = try? await executor.run { gate.wait() } }
    }

    /// Returns once the blocking job holds the slot.
    func waitUntilRunning() async {
        while executor.runningCount < 1 { await Task.yield() }
    }

    /// Lets the blocking job end and waits for it.
    func release() async {
        gate.signal()
        await job.value
    }
}

/// A plug-in key that does not declare its effect.
private enum UndeclaredDecodeTestKey: WebImageContextKey { typealias Value = Int }
/// A plug-in key that changes the decode, with a `Hashable` value.
private enum HashableDecodeTestKey: WebImageContextKey {
    typealias Value = String
    static let effect = WebImageContextKeyEffect.decode
}
/// A setting that cannot be compared.
private struct OpaqueSetting: Sendable {
    let body: @Sendable (Int) -> Int
}
/// A plug-in key that changes the decode, with a value that is not `Hashable`.
private enum OpaqueDecodeTestKey: WebImageContextKey {
    typealias Value = OpaqueSetting
    static let effect = WebImageContextKeyEffect.decode
}
