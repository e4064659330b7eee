import Dispatch
import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// Which requests the manager coalesces into one load, now that its work key derives from the
/// flags that change the work and the declared effects of the context keys. The loader is held
/// at a gate until every requester has joined, so "one load" and "two loads" are exact counts.
@Suite struct ImageManagerWorkKeyTests {
    let gate = AsyncGate()
    let loader: MockImageLoader
    let manager: ImageManager
    let url = URL(string: "https://example.com/work-key.png")!

    init() {
        loader = MockImageLoader(gate: gate)
        manager = ImageManager(cache: MockImageCache(), loader: loader)
    }

    /// One request: its flags (on top of `fromLoaderOnly`, so that no cache hit stands in for a
    /// load) and its context.
    struct Request: Sendable {
        var options: WebImageOptions = []
        var context = WebImageContext()
    }

    /// Runs `requests` together, holds the loader until all of them joined the manager, and
    /// returns how many loader requests they made.
    func loaderRequests(for requests: [Request]) async throws -> Int {
        let manager = manager
        let url = url
        let images = try await withThrowingTaskGroup(of: WebImage?.self) { group in
            for request in requests {
                group.addTask {
                    try await manager.loadImage(with: url, options: request.options.union(.fromLoaderOnly), context: request.context).image
                }
            }
            while manager.coordinator.subscriberCount < requests.count { await Task.yield() }
            gate.open()
            var images: [WebImage?] = []
            for try await image in group { images.append(image) }
            return images
        }
        #expect(images.count == requests.count)
        #expect(images.allSatisfy { $0 != nil }, "every requester gets an image")
        return loader.requestCount
    }

    // MARK: - Sharing

    @Test func requestsThatDifferOnlyInSchedulingFlagsShareOneLoad() async throws {
        let count = try await loaderRequests(for: [
            Request(),
            Request(options: .lowPriority),
            Request(options: .highPriority),
            Request(options: .retryFailed),
            Request(options: [.retryFailed, .lowPriority, .delayPlaceholder, .avoidAutoSetImage]),
        ])
        #expect(count == 1)
    }

    @Test func requestsThatDifferOnlyInNoneKeysShareOneLoad() async throws {
        let count = try await loaderRequests(for: [
            Request(),
            Request(context: WebImageContext { $0.callbackQueue = .immediate }),
            Request(context: WebImageContext { $0.callbackQueue = .queue(DispatchQueue(label: "work-key")) }),
            Request(context: WebImageContext { $0.setImageOperationKey = "view-1" }),
            Request(context: WebImageContext { $0.setImageOperationKey = "view-2" }),
            Request(context: WebImageContext { $0[NoneWorkTestKey.self] = { $0 } }),
        ])
        #expect(count == 1)
    }

    @Test func requestsWithTheSameLoadAndDecodeValuesShareOneLoad() async throws {
        let coder = MockImageCoder(name: "shared", magic: Array("mock:".utf8), format: .png)
        let context = WebImageContext {
            $0.imageCoder = coder
            $0.imageThumbnailPixelSize = PixelSize(width: 8, height: 8)
            $0.storeCacheType = .memory
            $0[LoadWorkTestKey.self] = "bucket"
        }
        let count = try await loaderRequests(for: [
            Request(context: context),
            Request(options: .lowPriority, context: context.setting(WebImageContextKeys.CallbackQueue.self, to: .immediate)),
        ])
        #expect(count == 1)
    }

    // MARK: - Not sharing

    @Test func progressiveLoadDoesNotShareWithAPlainLoad() async throws {
        let count = try await loaderRequests(for: [
            Request(),
            Request(options: .progressiveLoad),
        ])
        #expect(count == 2)
    }

    @Test func aDifferentThumbnailSizeDoesNotShare() async throws {
        let count = try await loaderRequests(for: [
            Request(),
            Request(context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 4, height: 4) }),
            Request(context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 8, height: 8) }),
        ])
        #expect(count == 3)
    }

    @Test func aDifferentLoadValueDoesNotShare() async throws {
        let count = try await loaderRequests(for: [
            Request(context: WebImageContext { $0.storeCacheType = .memory }),
            Request(context: WebImageContext { $0.storeCacheType = .disk }),
        ])
        #expect(count == 2)
    }

    // MARK: - Plug-in keys

    @Test func aDeclaredDecodeKeyWithEqualValuesShares() async throws {
        let count = try await loaderRequests(for: [
            Request(context: WebImageContext { $0[DecodeWorkTestKey.self] = PlugInSetting(quality: 80) }),
            Request(context: WebImageContext { $0[DecodeWorkTestKey.self] = PlugInSetting(quality: 80) }),
        ])
        #expect(count == 1)
    }

    @Test func aDeclaredDecodeKeyWithDifferentValuesDoesNotShare() async throws {
        let count = try await loaderRequests(for: [
            Request(context: WebImageContext { $0[DecodeWorkTestKey.self] = PlugInSetting(quality: 80) }),
            Request(context: WebImageContext { $0[DecodeWorkTestKey.self] = PlugInSetting(quality: 90) }),
            Request(),
        ])
        #expect(count == 3)
    }

    @Test func anUndeclaredPlugInKeyNeverShares() async throws {
        let count = try await loaderRequests(for: [
            Request(context: WebImageContext { $0[UndeclaredWorkTestKey.self] = "same" }),
            Request(context: WebImageContext { $0[UndeclaredWorkTestKey.self] = "same" }),
            Request(),
        ])
        #expect(count == 3, "not even with an equal value")
    }

    @Test func anIncomparableDecodeValueNeverShares() async throws {
        let options = ImageDecodeOptions()
        let count = try await loaderRequests(for: [
            Request(context: WebImageContext { $0.imageDecodeOptions = options }),
            Request(context: WebImageContext { $0.imageDecodeOptions = options }),
        ])
        #expect(count == 2)
    }
}

/// A plug-in setting that changes the decode.
private struct PlugInSetting: Hashable, Sendable {
    let quality: Int
}
/// A plug-in key declared as changing the decode.
private enum DecodeWorkTestKey: WebImageContextKey {
    typealias Value = PlugInSetting
    static let effect = WebImageContextKeyEffect.decode
}
/// A plug-in key declared as changing the load.
private enum LoadWorkTestKey: WebImageContextKey {
    typealias Value = String
    static let effect = WebImageContextKeyEffect.load
}
/// A plug-in key declared as changing nothing, with a value that cannot be compared.
private enum NoneWorkTestKey: WebImageContextKey {
    typealias Value = @Sendable (Int) -> Int
    static let effect = WebImageContextKeyEffect.none
}
/// A plug-in key that declares nothing.
private enum UndeclaredWorkTestKey: WebImageContextKey { typealias Value = String }
