import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

/// A key a plug-in declares, with its typed property.
enum WebPLosslessKey: WebImageContextKey { typealias Value = Bool }
enum RedisTTLKey: WebImageContextKey { typealias Value = Duration }

extension WebImageContext {
    var webPLossless: Bool? {
        get { self[WebPLosslessKey.self] }
        set { self[WebPLosslessKey.self] = newValue }
    }
}

@Suite struct WebImageContextTests {
    @Test func builtInKeysAreTyped() {
        var context = WebImageContext()
        #expect(context.isEmpty)
        let cache = MockImageCache(name: "ctx")
        context.imageCache = cache
        context.imageThumbnailPixelSize = PixelSize(width: 10, height: 20)
        context.queryCacheType = .memory
        context.imageScaleFactor = 2
        context.imageTransformer = MockImageTransformer(key: "T")
        #expect((context.imageCache as? MockImageCache) === cache)
        #expect(context.imageThumbnailPixelSize == PixelSize(width: 10, height: 20))
        #expect(context.queryCacheType == .memory)
        #expect(context.imageScaleFactor == 2)
        #expect(context.imageTransformer?.transformerKey == "T")
        #expect(context.storeCacheType == nil)
        #expect(context.count == 5)
    }

    @Test func pluginDefinedKeysWorkLikeBuiltInOnes() {
        var context = WebImageContext()
        context.webPLossless = true
        context[RedisTTLKey.self] = .seconds(30)
        #expect(context.webPLossless == true)
        #expect(context[RedisTTLKey.self] == .seconds(30))
        context.removeValue(for: WebPLosslessKey.self)
        #expect(context.webPLossless == nil)
        #expect(context[RedisTTLKey.self] == .seconds(30))
    }

    @Test func keysWithTheSameValueTypeDoNotCollide() {
        var context = WebImageContext()
        context.queryCacheType = .memory
        context.storeCacheType = .disk
        context.originalQueryCacheType = ImageCacheType.none
        context.originalStoreCacheType = .all
        #expect(context.queryCacheType == .memory)
        #expect(context.storeCacheType == .disk)
        #expect(context.originalQueryCacheType == ImageCacheType.none)
        #expect(context.originalStoreCacheType == .all)
    }

    @Test func mergingLetsTheRequestContextWin() {
        let managerDefaults = WebImageContext {
            $0.queryCacheType = .all
            $0.imageScaleFactor = 1
            $0.setImageOperationKey = "manager"
        }
        let request = WebImageContext {
            $0.queryCacheType = .memory
            $0.webPLossless = true
        }
        let merged = managerDefaults.merging(request)
        #expect(merged.queryCacheType == .memory, "the request's value wins")
        #expect(merged.imageScaleFactor == 1, "the default stays where the request sets nothing")
        #expect(merged.setImageOperationKey == "manager")
        #expect(merged.webPLossless == true)
    }

    @Test func settingReturnsACopy() {
        let base = WebImageContext()
        let changed = base.setting(WebImageContextKeys.ImageScaleFactor.self, to: 3)
        #expect(base.imageScaleFactor == nil)
        #expect(changed.imageScaleFactor == 3)
        #expect(changed.setting(WebImageContextKeys.ImageScaleFactor.self, to: nil).imageScaleFactor == nil)
    }

    @Test func contextOverridesFlowIntoDecodeOptions() {
        var context = WebImageContext()
        var fromContext = ImageDecodeOptions()
        fromContext.thumbnailPixelSize = PixelSize(width: 5, height: 5)
        fromContext.preserveAspectRatio = false
        context.imageDecodeOptions = fromContext
        context.imageThumbnailPixelSize = PixelSize(width: 50, height: 40)
        let options = ImageDecodeOptions(options: [.decodeFirstFrameOnly], context: context, cacheKey: "a@2x.png")
        #expect(options.thumbnailPixelSize == PixelSize(width: 50, height: 40), "an individual key beats imageDecodeOptions")
        #expect(options.preserveAspectRatio == false, "imageDecodeOptions beats the default")
        #expect(options.firstFrameOnly)
        #expect(options.context.imageThumbnailPixelSize == PixelSize(width: 50, height: 40))
    }

    @Test func callbackQueueRunsWork() async {
        await withCheckedContinuation { continuation in
            CallbackQueue.queue(DispatchQueue(label: "test")).execute { continuation.resume() }
        }
        await withCheckedContinuation { continuation in
            CallbackQueue.immediate.execute { continuation.resume() }
        }
    }
}
