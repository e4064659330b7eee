import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// The event stream of ``ImageManager``: the kinds each request reports, in order, for every
/// path through the pipeline; coalesced requests; observers and the `AsyncStream`.
///
/// Loads are held at the mocks' gates; events that come after the result (the stores) are
/// awaited through the recorder, never with a sleep.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct ImageManagerEventTests {
    let cache = MockImageCache()
    let recorder = EventRecorder()
    let url = URL(string: "https://example.com/events/photo.png")!

    var key: String { url.absoluteString }
    /// What the mock loader delivers for `url`, in bytes.
    var loadedBytes: Int { Data("mock:\(url.absoluteString)".utf8).count }

    func stored(_ cacheType: ImageCacheType, _ key: String) -> String {
        "stored(\(cacheType), key \(String(reflecting: key)))"
    }

    @Test func memoryHit() async throws {
        cache.preload(TestImages.still(), forKey: key, cacheType: .memory)
        let manager = ImageManager(cache: cache, loader: MockImageLoader())
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        let result = try await manager.loadImage(with: url)
        #expect(result.cacheType == .memory)
        #expect(recorder.labels() == ["started", "cacheHit(memory)", "finished(memory)"])
        let events = recorder.events
        #expect(Set(events.map(\.requestID)).count == 1)
        #expect(events.allSatisfy { $0.url == url && $0.cacheKey == key })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test func missLoadAndStore() async throws {
        let loader = MockImageLoader()
        let manager = ImageManager(cache: cache, loader: loader)
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        _ = try await manager.loadImage(with: url)
        // The store runs after the result.
        await recorder.wait { $0.contains { $0.kind.name == "stored" } }
        #expect(recorder.labels() == [
            "started", "cacheMiss", "loaderStarted", "loaderFinished(bytes: \(loadedBytes), status: 200)",
            "finished(none)", stored(.all, key),
        ])
        #expect(loader.calls.all.first?.context.imageEventSink != nil, "the loader gets the work's sink")
    }

    /// The decode stage reports its decode to the request's sink: a loader that decodes
    /// through ``ImageDecodeRequest`` needs no event code of its own.
    @Test func theDecodeStageReportsTheDecode() async throws {
        let loader = MockImageLoader()
        let image = TestImages.still(width: 6, height: 4)
        loader.respond(to: url, with: .image(image, data: try RawBitmapCoder().encode(image, as: .rawBitmap, options: ImageEncodeOptions())))
        let manager = ImageManager(cache: cache, loader: loader)
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        _ = try await manager.loadImage(with: url, options: [.waitStoreCache], context: WebImageContext { $0.imageCoder = RawBitmapCoder() })
        let decoded = recorder.events.compactMap { event -> (PixelSize, Int)? in
            if case .decoded(_, let pixelSize, let frameCount) = event.kind { return (pixelSize, frameCount) }
            return nil
        }
        #expect(decoded.count == 1)
        #expect(decoded.first?.0 == PixelSize(width: 6, height: 4))
        #expect(decoded.first?.1 == 1)
        let names = recorder.events.map(\.kind.name)
        #expect(names.firstIndex(of: "decoded")! > names.firstIndex(of: "loaderStarted")!)
        #expect(names.firstIndex(of: "decoded")! < names.firstIndex(of: "loaderFinished")!)
    }

    @Test func waitStoreCacheReportsTheStoreBeforeTheEnd() async throws {
        let manager = ImageManager(cache: cache, loader: MockImageLoader())
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        _ = try await manager.loadImage(with: url, options: [.waitStoreCache])
        #expect(recorder.labels() == [
            "started", "cacheMiss", "loaderStarted", "loaderFinished(bytes: \(loadedBytes), status: 200)",
            stored(.all, key), "finished(none)",
        ])
    }

    @Test func transformedLoad() async throws {
        let transformer = MockImageTransformer(key: "Mock")
        let manager = ImageManager(cache: cache, loader: MockImageLoader())
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        let result = try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = transformer })
        await recorder.wait { $0.filter { $0.kind.name == "stored" }.count == 2 }
        let transformedKey = ImageManager.transformedKey(key, transformerKey: "Mock")
        #expect(result.cacheKey == transformedKey)
        #expect(recorder.labels() == [
            "started", "cacheMiss", "cacheMiss", "loaderStarted", "loaderFinished(bytes: \(loadedBytes), status: 200)",
            "transformed(Mock)", "finished(none)", stored(.disk, key), stored(.all, transformedKey),
        ])
        #expect(recorder.events.allSatisfy { $0.cacheKey == transformedKey })
        let milliseconds = recorder.events.compactMap { event -> Double? in
            if case .transformed(_, let milliseconds) = event.kind { milliseconds } else { nil }
        }
        #expect(milliseconds.count == 1 && milliseconds[0] >= 0)
    }

    @Test func transformedFromTheCachedOriginal() async throws {
        cache.preload(TestImages.still(), forKey: key, cacheType: .disk)
        let loader = MockImageLoader()
        let manager = ImageManager(cache: cache, loader: loader)
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        _ = try await manager.loadImage(with: url, context: WebImageContext { $0.imageTransformer = MockImageTransformer(key: "Mock") })
        await recorder.wait { $0.contains { $0.kind.name == "stored" } }
        #expect(recorder.labels() == [
            "started", "cacheMiss", "cacheHit(disk)", "transformed(Mock)", "finished(disk)",
            stored(.all, ImageManager.transformedKey(key, transformerKey: "Mock")),
        ])
        #expect(loader.requestCount == 0)
    }

    @Test func storeFailureIsReportedAndTheLoadSucceeds() async throws {
        cache.storeError = WebImageError(.cacheFailure, "disk full")
        let manager = ImageManager(cache: cache, loader: MockImageLoader())
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        let result = try await manager.loadImage(with: url)
        #expect(result.image != nil)
        await recorder.wait { $0.contains { $0.kind.name == "storeFailed" } }
        #expect(recorder.labels().suffix(2) == ["finished(none)", "storeFailed(all, key \(String(reflecting: key)): disk full)"])
    }

    @Test func aStoreErrorOfAnotherTypeIsWrappedNamingTheKey() async throws {
        let failing = ScriptedStoreCache(storeError: DiskFull())
        let manager = ImageManager(cache: failing, loader: MockImageLoader())
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        _ = try await manager.loadImage(with: url)
        await recorder.wait { $0.contains { $0.kind.name == "storeFailed" } }
        let failure = recorder.events.compactMap { event -> (ImageCacheType, String, WebImageError)? in
            if case .storeFailed(let cacheType, let key, let error) = event.kind { (cacheType, key, error) } else { nil }
        }
        let (cacheType, storedKey, error) = try #require(failure.first)
        #expect(cacheType == .all)
        #expect(storedKey == key)
        #expect(error.code == .cacheFailure)
        #expect(error.message.contains(String(reflecting: key)))
        #expect(error.underlyingError is DiskFull)
        #expect(error.url == url)
    }

    @Test func joinedRequestReportsItsOwnStartJoinAndEnd() async throws {
        let gate = AsyncGate()
        let loader = MockImageLoader(gate: gate)
        let manager = ImageManager(cache: cache, loader: loader)
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        let first = Task { try await manager.loadImage(with: url) }
        await gate.waitForArrivals(1)
        let second = Task { try await manager.loadImage(with: url) }
        await waitForActiveSinks(2, in: manager)
        gate.open()
        _ = try await first.value
        _ = try await second.value
        await recorder.wait { $0.filter { $0.kind.name == "stored" }.count == 2 }

        #expect(loader.requestCount == 1)
        let ids = recorder.requestIDs
        #expect(ids.count == 2)
        let loaded = "loaderFinished(bytes: \(loadedBytes), status: 200)"
        #expect(recorder.labels(of: ids[0]) == ["started", "cacheMiss", "loaderStarted", loaded, "finished(none)", stored(.all, key)])
        // The joiner misses what the work did before it joined; it hears the rest under its own id.
        #expect(recorder.labels(of: ids[1]) == ["started", "joined", loaded, "finished(none)", stored(.all, key)])
    }

    @Test func aPartsLogReachesEveryRequestSharingTheWork() async throws {
        let gate = AsyncGate()
        let loader = LoggingLoader(inner: MockImageLoader(gate: gate))
        let manager = ImageManager(cache: cache, loader: loader)
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        let first = Task { try await manager.loadImage(with: url) }
        await gate.waitForArrivals(1)
        let second = Task { try await manager.loadImage(with: url) }
        await waitForActiveSinks(2, in: manager)
        gate.open()
        _ = try await first.value
        _ = try await second.value

        let logs = recorder.events.filter { $0.kind.name == "log" }
        #expect(logs.count == 2)
        #expect(Set(logs.map(\.requestID)) == Set(recorder.requestIDs))
        #expect(logs.allSatisfy { $0.kind.description == "log(info, LoggingLoader: answered \(url.absoluteString))" })
    }

    /// A request that arrives while the finished load stores gets the load's result, labelled
    /// with the tier that result came from: `.none`, freshly loaded (not `.memory`).
    @Test func requestArrivingWhileTheStoresRunGetsTheLoadsResultAndLabel() async throws {
        let storeGate = AsyncGate()
        let storing = ScriptedStoreCache(storeGate: storeGate)
        let manager = ImageManager(cache: storing, loader: MockImageLoader())
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        _ = try await manager.loadImage(with: url)
        await storeGate.waitForArrivals(1)
        let late = try await manager.loadImage(with: url)
        #expect(late.cacheType == .none)
        storeGate.open()
        await recorder.wait { $0.contains { $0.kind.name == "stored" } }
        let ids = recorder.requestIDs
        #expect(recorder.labels(of: ids[1]) == ["started", "joined", "finished(none)"])
        #expect(recorder.labels(of: ids[0]).last == stored(.all, key), "the store goes to the request that got the result")
    }

    @Test func cancelledRequest() async throws {
        let gate = AsyncGate()
        let loader = MockImageLoader(gate: gate)
        let manager = ImageManager(cache: cache, loader: loader)
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        let task = Task { try await manager.loadImage(with: url) }
        await gate.waitForArrivals(1)
        task.cancel()
        let error = await #expect(throws: WebImageError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(recorder.labels() == ["started", "cacheMiss", "loaderStarted", "cancelled"])
    }

    @Test func cancellingAJoinerEndsOnlyIt() async throws {
        let gate = AsyncGate()
        let manager = ImageManager(cache: cache, loader: MockImageLoader(gate: gate))
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        let first = Task { try await manager.loadImage(with: url) }
        await gate.waitForArrivals(1)
        let second = Task { try await manager.loadImage(with: url) }
        await waitForActiveSinks(2, in: manager)
        second.cancel()
        _ = try? await second.value
        gate.open()
        _ = try await first.value
        await recorder.wait { $0.contains { $0.kind.name == "stored" } }
        let ids = recorder.requestIDs
        #expect(recorder.labels(of: ids[1]) == ["started", "joined", "cancelled"])
        #expect(recorder.labels(of: ids[0]).suffix(2) == ["finished(none)", stored(.all, key)])
    }

    @Test func cancelAllReportsEveryWaitingRequest() async throws {
        let gate = AsyncGate()
        let manager = ImageManager(cache: cache, loader: MockImageLoader(gate: gate))
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        let first = Task { try await manager.loadImage(with: url) }
        await gate.waitForArrivals(1)
        let second = Task { try await manager.loadImage(with: url) }
        await waitForActiveSinks(2, in: manager)
        manager.cancelAll()
        _ = try? await first.value
        _ = try? await second.value
        let ids = recorder.requestIDs
        #expect(recorder.labels(of: ids[0]).last == "cancelled")
        #expect(recorder.labels(of: ids[1]) == ["started", "joined", "cancelled"])
    }

    @Test func failedLoad() async throws {
        let loader = MockImageLoader()
        loader.respond(to: url, with: .failure(WebImageError(.invalidDownloadStatusCode, "HTTP 404", url: url)))
        let manager = ImageManager(cache: cache, loader: loader)
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        await #expect(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(recorder.labels() == ["started", "cacheMiss", "loaderStarted", "loaderFailed(HTTP 404)", "failed(HTTP 404)"])
    }

    @Test func blockedURLStartsAndFails() async throws {
        let loader = MockImageLoader()
        loader.respond(to: url, with: .failure(WebImageError(.invalidDownloadStatusCode, "HTTP 404", url: url)))
        let manager = ImageManager(cache: cache, loader: loader)
        _ = try? await manager.loadImage(with: url)
        #expect(manager.isFailedURL(url))
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        await #expect(throws: WebImageError.self) { try await manager.loadImage(with: url) }
        #expect(recorder.events.map(\.kind.name) == ["started", "failed"])
        guard case .failed(let error) = recorder.events.last?.kind else { Issue.record("no failure"); return }
        #expect(error.code == .blockedURL)
        #expect(recorder.events.allSatisfy { $0.cacheKey == key && $0.url == url })
        // A nil URL has nothing to report about.
        _ = try? await manager.loadImage(with: nil)
        #expect(recorder.events.count == 2)
    }

    @Test func eachCallIsItsOwnRequest() async throws {
        cache.preload(TestImages.still(), forKey: key, cacheType: .memory)
        let manager = ImageManager(cache: cache, loader: MockImageLoader())
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        _ = try await manager.loadImage(with: url)
        _ = try await manager.loadImage(with: url)
        await withCheckedContinuation { done in
            manager.loadImage(with: url) { _ in done.resume() }
        }
        let ids = recorder.requestIDs
        #expect(ids.count == 3)
        #expect(ids == ids.sorted())
        for id in ids { #expect(recorder.labels(of: id) == ["started", "cacheHit(memory)", "finished(memory)"]) }
    }

    @Test func coalescingStaysOnWhenObserved() async throws {
        let gate = AsyncGate()
        let loader = MockImageLoader(gate: gate)
        let manager = ImageManager(cache: cache, loader: loader)
        let observation = manager.addEventObserver(recorder.record)
        defer { observation.cancel() }

        let tasks = (0..<20).map { _ in Task { try await manager.loadImage(with: url) } }
        await waitForActiveSinks(20, in: manager)
        gate.open()
        for task in tasks { _ = try await task.value }
        #expect(loader.requestCount == 1)
        let ids = recorder.requestIDs
        #expect(ids.count == 20)
        for id in ids {
            let ends = recorder.events.filter { $0.requestID == id && $0.kind.isEnd }
            #expect(ends.map(\.kind.description) == ["finished(none)"], "exactly one end per request")
        }
    }

    @Test func sinksInTheCallersContextDoNotSplitTheWork() async throws {
        let gate = AsyncGate()
        let loader = MockImageLoader(gate: gate)
        let manager = ImageManager(cache: cache, loader: loader)
        let contexts = (0..<2).map { id in
            WebImageContext { $0.imageEventSink = ImageEventSink(requestID: UInt64(id), url: url, cacheKey: key, handler: recorder.record) }
        }
        let tasks = contexts.map { context in Task { try await manager.loadImage(with: url, context: context) } }
        while manager.coordinator.subscriberCount < 2 { await Task.yield() }
        gate.open()
        for task in tasks { _ = try await task.value }
        #expect(loader.requestCount == 1)
    }

    @Test func removedObserversHearNothing() async throws {
        cache.preload(TestImages.still(), forKey: key, cacheType: .memory)
        let loader = MockImageLoader()
        let manager = ImageManager(cache: cache, loader: loader)
        let cancelled = EventRecorder()
        let kept = manager.addEventObserver(recorder.record)
        defer { kept.cancel() }
        let observation = manager.addEventObserver(cancelled.record)
        observation.cancel()
        observation.cancel()
        // A released observation is removed too.
        _ = manager.addEventObserver(cancelled.record)

        _ = try await manager.loadImage(with: url)
        #expect(cancelled.events.isEmpty)
        #expect(recorder.events.count == 3)

        kept.cancel()
        #expect(!manager.eventHub.isObserved)
        _ = try await manager.loadImage(with: url, options: [.fromLoaderOnly])
        #expect(recorder.events.count == 3)
        #expect(loader.calls.all.last?.context.imageEventSink == nil, "no observer: no sink in the context")
    }

    @Test func asyncStream() async throws {
        cache.preload(TestImages.still(), forKey: key, cacheType: .memory)
        let manager = ImageManager(cache: cache, loader: MockImageLoader())
        do {
            let stream = manager.events()
            _ = try await manager.loadImage(with: url)
            var kinds: [String] = []
            for await event in stream {
                kinds.append(event.kind.description)
                if kinds.count == 3 { break }
            }
            #expect(kinds == ["started", "cacheHit(memory)", "finished(memory)"])
        }
        #expect(!manager.eventHub.isObserved, "dropping the stream removes its observer")
    }

    @Test func asyncStreamKeepsTheNewestEvents() async throws {
        cache.preload(TestImages.still(), forKey: key, cacheType: .memory)
        let manager = ImageManager(cache: cache, loader: MockImageLoader())
        let stream = manager.events(bufferingNewest: 2)
        _ = try await manager.loadImage(with: url)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.kind.description == "cacheHit(memory)")
        #expect(await iterator.next()?.kind.description == "finished(memory)")
    }

    @Test func eventDescriptions() {
        let event = ImageEvent(requestID: 7, url: url, cacheKey: "thumb", kind: .loaderFinished(bytes: 10, statusCode: nil))
        #expect(event.description == "#7 loaderFinished(bytes: 10) \(url.absoluteString) key \"thumb\"")
        #expect(ImageEvent.Kind.decoded(milliseconds: 1.26, pixelSize: PixelSize(width: 4, height: 3), frameCount: 1).description == "decoded(1.3 ms, 4x3, 1 frame)")
        #expect(ImageEvent.Kind.log(level: .warning, source: "X", message: "odd").description == "log(warning, X: odd)")
        #expect(ImageEvent.LogLevel.debug < .error)
    }

    @Test func aSinkStampsItsRequest() {
        let sink = ImageEventSink(requestID: 3, url: url, cacheKey: "k", handler: recorder.record)
        sink.emit(.cacheMiss)
        #expect(recorder.events.map(\.requestID) == [3])
        #expect(recorder.events.map(\.cacheKey) == ["k"])
        #expect(recorder.labels() == ["cacheMiss"])
    }

    @Test func aJoinerThatEndsBeforeItActivatesGetsItsEndHandedOver() async throws {
        let coordinator = LoadCoordinator()
        let workKey = LoadWorkKey(cacheKey: key, options: 0, context: WebImageContext().identity(for: [.load, .decode]), unique: nil)
        let generation = Locked<UInt64?>(nil)
        func join(_ id: UInt64) -> Task<ImageLoadResult, any Error> {
            let sink = ImageEventSink(requestID: id, url: url, cacheKey: key, handler: recorder.record)
            return Task {
                try await withCheckedThrowingContinuation { continuation in
                    let outcome = coordinator.join(workKey, id: id, subscriber: .init(continuation: continuation, events: nil, url: url), sink: sink)
                    if case .started(let started) = outcome { generation.withLock { $0 = started } }
                }
            }
        }
        let starter = join(0)
        while coordinator.subscriberCount < 1 { await Task.yield() }
        let leaver = join(1)
        let joiner = join(2)
        while coordinator.subscriberCount < 3 { await Task.yield() }
        // Neither joiner has activated: their ends wait for `activate`.
        coordinator.leave(id: 1)
        let result = ImageLoadResult(image: nil, data: Data([1]), cacheType: .none, url: url, cacheKey: key)
        coordinator.deliver(.success(result), key: workKey, generation: try #require(generation.withLock { $0 }))
        #expect(recorder.labels(of: 0) == ["finished(none)"])
        #expect(recorder.labels(of: 1).isEmpty && recorder.labels(of: 2).isEmpty)

        let left = try #require(coordinator.activate(id: 1))
        #expect(throws: CancellationError.self) { try left.get() }
        let delivered = try #require(coordinator.activate(id: 2))
        #expect(try delivered.get().data == Data([1]))
        #expect(coordinator.activate(id: 2) == nil, "handed over once")
        _ = try await starter.value
        _ = try await joiner.value
        await #expect(throws: WebImageError.self) { try await leaver.value }
    }

    /// Waits until `count` requesters are subscribed with active sinks (joiners have reported
    /// `joined`), so that the work's next events reach all of them.
    func waitForActiveSinks(_ count: Int, in manager: ImageManager) async {
        while manager.coordinator.activeSinkCount < count { await Task.yield() }
    }
}

/// Records events and lets a test wait for a condition on them.
final class EventRecorder: Sendable {
    private struct Waiter {
        let condition: @Sendable ([ImageEvent]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var events: [ImageEvent] = []
        var waiters: [Waiter] = []
    }

    private let state = Locked(State())

    /// Records `event` (an observer).
    @Sendable func record(_ event: ImageEvent) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            let events = state.events
            let ready = state.waiters.filter { $0.condition(events) }.map(\.continuation)
            state.waiters.removeAll { $0.condition(events) }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Every event so far, in order.
    var events: [ImageEvent] { state.withLock { $0.events } }

    /// The request ids, in the order of their first event.
    var requestIDs: [UInt64] {
        var seen = Set<UInt64>()
        return events.map(\.requestID).filter { seen.insert($0).inserted }
    }

    /// The kinds (of one request, or all), described; a transform's duration left out.
    func labels(of requestID: UInt64? = nil) -> [String] {
        events.filter { requestID == nil || $0.requestID == requestID }.map { event in
            if case .transformed(let key, _) = event.kind { return "transformed(\(key))" }
            return event.kind.description
        }
    }

    /// Returns once `condition` holds for the events recorded.
    func wait(until condition: @escaping @Sendable ([ImageEvent]) -> Bool) async {
        await withCheckedContinuation { continuation in
            let met = state.withLock { state -> Bool in
                if condition(state.events) { return true }
                state.waiters.append(Waiter(condition: condition, continuation: continuation))
                return false
            }
            if met { continuation.resume() }
        }
    }
}

/// An error that is not a `WebImageError`.
private struct DiskFull: Error {}

/// A cache that misses every query and whose stores fail with a given error, or wait at a gate.
private final class ScriptedStoreCache: ImageCache {
    let storeError: (any Error & Sendable)?
    let storeGate: AsyncGate?

    init(storeError: (any Error & Sendable)? = nil, storeGate: AsyncGate? = nil) {
        self.storeError = storeError
        self.storeGate = storeGate
    }

    func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? { nil }

    func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        await storeGate?.wait()
        if let storeError { throw storeError }
    }

    func removeImage(forKey key: String, cacheType: ImageCacheType) async {}
    func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType { .none }
    func clear(cacheType: ImageCacheType) async {}
}

/// A loader that reports a log line through the request's sink once its inner loader answered.
private final class LoggingLoader: ImageLoader {
    let inner: MockImageLoader

    init(inner: MockImageLoader) {
        self.inner = inner
    }

    func canRequestImage(for url: URL) -> Bool { inner.canRequestImage(for: url) }

    func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        let result = try await inner.requestImage(with: url, options: options, context: context, progress: progress)
        context.imageEventSink?.emit(.log(level: .info, source: "LoggingLoader", message: "answered \(url.absoluteString)"))
        return result
    }
}
