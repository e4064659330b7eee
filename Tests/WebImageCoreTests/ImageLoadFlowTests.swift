import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// The manager's load flow as a value (issue 32): each decision of SDWebImage's flow, with no
/// cache, loader or task.
@Suite struct ImageLoadFlowTests {
    static let url = URL(string: "https://example.com/a.png")!
    static let image = WebImage(bitmap: TestImages.solid(RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)))

    static func flow(_ options: WebImageOptions = [], query: ImageCacheType = .all, original: ImageCacheType = .all, variant: Bool = false) -> ImageLoadFlow {
        ImageLoadFlow(url: url, key: "key", options: options, queryCacheType: query, originalQueryCacheType: original, isVariant: variant)
    }

    /// The step's name, to compare steps.
    static func name(_ step: ImageLoadFlow.Step) -> String {
        switch step {
        case .queryCache: "queryCache"
        case .queryOriginal: "queryOriginal"
        case .renderOriginal: "renderOriginal"
        case .checkLoader: "checkLoader"
        case .load(let showing): showing == nil ? "load" : "load+showing"
        case .deliverData: "deliverData"
        case .renderLoaded: "renderLoaded"
        case .deliverCached(let hit): "deliverCached(\(hit.cacheType))"
        case .fail(let error, let loaderError): "fail(\(error.code)\(loaderError == nil ? "" : ", loader"))"
        }
    }

    @Test func aHitIsTheAnswerAndAMissGoesToTheLoader() {
        var flow = Self.flow()
        #expect(Self.name(flow.start()) == "queryCache")
        #expect(Self.name(flow.cacheQueried(ImageCacheResult(image: Self.image, cacheType: .disk))) == "deliverCached(disk)")
        var miss = Self.flow()
        #expect(Self.name(miss.cacheQueried(nil)) == "checkLoader")
        #expect(Self.name(miss.loaderChecked(canRequest: true)) == "load")
        #expect(Self.name(miss.loaded(ImageLoaderResult(image: Self.image, data: Data([1])))) == "renderLoaded")
    }

    @Test func aDataOnlyHitServesOnlyAvoidDecodeImage() {
        let dataHit = ImageCacheResult(image: nil, data: Data([1]), cacheType: .memory)
        var decoding = Self.flow()
        #expect(Self.name(decoding.cacheQueried(dataHit)) == "checkLoader" && decoding.cached == nil)
        var avoiding = Self.flow(.avoidDecodeImage)
        #expect(Self.name(avoiding.cacheQueried(dataHit)) == "deliverCached(memory)")
    }

    @Test func aVariantThatMissesAsksForTheOriginalAndRendersIt() {
        var flow = Self.flow(variant: true)
        #expect(Self.name(flow.cacheQueried(nil)) == "queryOriginal")
        #expect(Self.name(flow.originalQueried(ImageCacheResult(image: Self.image, cacheType: .memory))) == "renderOriginal")
        #expect(Self.name(flow.originalQueried(ImageCacheResult(image: nil, data: Data([1]), cacheType: .disk))) == "checkLoader")
        var noOriginalQuery = Self.flow(original: .none, variant: true)
        #expect(Self.name(noOriginalQuery.cacheQueried(nil)) == "checkLoader")
    }

    @Test func optionsThatSkipAStep() {
        #expect(Self.name(Self.flow(.fromLoaderOnly).start()) == "checkLoader")
        #expect(Self.name(Self.flow(query: .none).start()) == "checkLoader")
        #expect(Self.name(Self.flow(query: .none, variant: true).start()) == "queryOriginal")
        var cacheOnly = Self.flow(.fromCacheOnly)
        #expect(Self.name(cacheOnly.cacheQueried(nil)) == "fail(cacheMiss)")
        var refreshCacheOnly = Self.flow([.fromCacheOnly, .refreshCached])
        #expect(Self.name(refreshCacheOnly.cacheQueried(ImageCacheResult(image: Self.image, cacheType: .disk))) == "deliverCached(disk)")
    }

    @Test func refreshCachedShowsTheHitThenLoadsAndKeepsItWhenNotModified() {
        var flow = Self.flow(.refreshCached)
        #expect(Self.name(flow.cacheQueried(ImageCacheResult(image: Self.image, cacheType: .disk))) == "checkLoader")
        #expect(Self.name(flow.loaderChecked(canRequest: true)) == "load+showing")
        #expect(Self.name(flow.loaderChecked(canRequest: false)) == "deliverCached(disk)")
        let notModified = WebImageError(.cacheNotModified, "same bytes")
        #expect(Self.name(flow.loadFailed(notModified, isCancelled: false)) == "deliverCached(disk)")
        #expect(Self.name(Self.flow().loadFailed(notModified, isCancelled: false)) == "fail(cacheNotModified, loader)")
    }

    @Test func loaderFailuresAndBadResults() {
        let flow = Self.flow()
        #expect(Self.name(flow.loaderChecked(canRequest: false)) == "fail(unsupportedURL)")
        #expect(Self.name(flow.loadFailed(CancellationError(), isCancelled: false)) == "fail(cancelled)")
        #expect(Self.name(flow.loadFailed(WebImageError(.invalidDownloadStatusCode, "500"), isCancelled: true)) == "fail(cancelled)")
        struct Opaque: Error {}
        guard case .fail(let wrapped, let loaderError) = flow.loadFailed(Opaque(), isCancelled: false) else {
            Issue.record("an opaque error fails the load"); return
        }
        #expect(wrapped.code == .loaderFailed && wrapped.url == Self.url && loaderError is Opaque, "the loader judges its own error")
        guard case .fail(let named, _) = flow.loadFailed(WebImageError(.invalidDownloadStatusCode, "500"), isCancelled: false) else {
            Issue.record("a WebImageError fails the load"); return
        }
        #expect(named.code == .invalidDownloadStatusCode && named.url == Self.url, "the URL is filled in")
        #expect(Self.name(flow.loaded(ImageLoaderResult(image: nil, data: nil))) == "fail(badImageData)")
        #expect(Self.name(flow.loaded(ImageLoaderResult(image: nil, data: Data([1])))) == "fail(badImageData)")
        #expect(Self.name(Self.flow(.avoidDecodeImage).loaded(ImageLoaderResult(image: nil, data: Data([1])))) == "deliverData")
        let empty = WebImage(bitmap: (try? Bitmap(width: 0, height: 0)) ?? TestImages.solid(RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)))
        #expect(Self.name(flow.loaded(ImageLoaderResult(image: empty, data: Data([1])))) == "fail(badImageData)")
    }
}
