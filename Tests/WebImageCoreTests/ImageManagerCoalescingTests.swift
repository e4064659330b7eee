import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// Deterministic coalescing and cancellation: the loader is held at a gate while the test
/// arranges the requesters, and the coordinator's counters say when every requester joined.
@Suite struct ImageManagerCoalescingTests {
    let gate = AsyncGate()
    let cache = MockImageCache()
    let loader: MockImageLoader
    let manager: ImageManager
    let url = URL(string: "https://example.com/shared.png")!

    init() {
        loader = MockImageLoader(gate: gate)
        manager = ImageManager(cache: cache, loader: loader)
    }

    /// Waits until `count` requesters are registered with the manager's coordinator.
    func waitForSubscribers(_ count: Int) async {
        while manager.coordinator.subscriberCount < count { await Task.yield() }
    }

    @Test func hundredConcurrentRequestsShareOneLoad() async throws {
        let completions = CallRecorder<Int>()
        let results = await withTaskGroup(of: ImageLoadResult?.self) { group in
            for index in 0..<100 {
                group.addTask {
                    defer { completions.record(index) }
                    return try? await manager.loadImage(with: url)
                }
            }
            await waitForSubscribers(100)
            await gate.waitForArrivals(1)
            gate.open()
            var results: [ImageLoadResult?] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(loader.requestCount == 1)
        #expect(results.count == 100)
        #expect(results.allSatisfy { $0?.image?.pixelSize == TestImages.still().pixelSize })
        #expect(completions.all.sorted() == Array(0..<100), "each requester completes exactly once")
    }

    @Test func cancellingNinetyNineLeavesTheLastOneItsImage() async throws {
        let outcomes = CallRecorder<(Int, String)>()
        var operations: [ImageOperation] = []
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Countdown(100) { done.resume() }
            for index in 0..<100 {
                operations.append(manager.loadImage(with: url) { result in
                    switch result {
                    case .success: outcomes.record((index, "image"))
                    case .failure(let error): outcomes.record((index, "\(error.code)"))
                    }
                    remaining.tick()
                })
            }
            Task { [operations] in
                await waitForSubscribers(100)
                for operation in operations.dropLast() { operation.cancel() }
                await waitForSubscribers(1)
                #expect(manager.coordinator.subscriberCount == 1)
                gate.open()
            }
        }
        let byIndex = Dictionary(grouping: outcomes.all, by: \.0)
        #expect(byIndex.count == 100)
        #expect(byIndex.values.allSatisfy { $0.count == 1 }, "exactly one completion each")
        #expect(byIndex[99]?.first?.1 == "image")
        #expect((0..<99).allSatisfy { byIndex[$0]?.first?.1 == "cancelled" })
        #expect(loader.requestCount == 1)
        #expect(loader.cancellations.count == 0)
    }

    @Test func cancellingEveryRequesterCancelsTheLoad() async throws {
        let tasks = (0..<10).map { _ in Task { try await manager.loadImage(with: url) } }
        await waitForSubscribers(10)
        await gate.waitForArrivals(1)
        for task in tasks { task.cancel() }
        for task in tasks {
            let error = await #expect(throws: WebImageError.self) { try await task.value }
            #expect(error?.code == .cancelled)
        }
        // The pipeline's task was cancelled, so the gated loader is released and sees it.
        while loader.cancellations.count == 0 { await Task.yield() }
        #expect(loader.cancellations.all == [url])
        #expect(loader.requestCount == 1)
        // A new request starts fresh work rather than joining the cancelled one.
        let fresh = Task { try await manager.loadImage(with: url) }
        await gate.waitForArrivals(2)
        gate.open()
        #expect(try await fresh.value.image != nil)
        #expect(loader.requestCount == 2)
    }

    @Test func requestsWithDifferentWorkDoNotShare() async throws {
        let transformer = MockImageTransformer(key: "T")
        // fromLoaderOnly: no cache hit can stand in for a load.
        let options: WebImageOptions = [.fromLoaderOnly]
        let loads = Task {
            async let plain = manager.loadImage(with: url, options: options)
            async let thumbnail = manager.loadImage(with: url, options: options, context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 4, height: 4) })
            async let transformed = manager.loadImage(with: url, options: options, context: WebImageContext { $0.imageTransformer = transformer })
            async let modified = manager.loadImage(with: url, options: options, context: WebImageContext { $0[UndeclaredPlugInKey.self] = "1" })
            async let again = manager.loadImage(with: url, options: options)
            return try await [plain, thumbnail, transformed, modified, again].count
        }
        await waitForSubscribers(5)
        gate.open()
        #expect(try await loads.value == 5)
        #expect(loader.requestCount == 4, "plain and again share; a thumbnail, a transformer or an incomparable context does not")
    }

    @Test func cancelAllEndsEveryWaitingRequester() async throws {
        let tasks = (0..<5).map { index in Task { try await manager.loadImage(with: URL(string: "https://example.com/\(index).png")!) } }
        await waitForSubscribers(5)
        manager.cancelAll()
        for task in tasks {
            let error = await #expect(throws: WebImageError.self) { try await task.value }
            #expect(error?.code == .cancelled)
        }
        gate.open()
    }

    /// 2,000 requests over 50 URLs, a quarter cancelled at random, a fifth of the URLs failing:
    /// every requester completes exactly once and the counts add up.
    @Test func stressTwoThousandRequestsWithRandomCancellationAndFailures() async throws {
        gate.open()
        var random = SplitMix64(seed: 2026)
        let urls = (0..<50).map { URL(string: "https://example.com/stress/\($0).png")! }
        for (index, url) in urls.enumerated() where index % 5 == 0 {
            loader.respond(to: url, with: .failure(WebImageError(.invalidDownloadResponse, "flaky", underlyingError: URLError(.timedOut))))
        }
        let outcomes = CallRecorder<(Int, String)>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Countdown(2_000) { done.resume() }
            for index in 0..<2_000 {
                let url = urls[Int(random.next() % 50)]
                let options: WebImageOptions = random.next() % 3 == 0 ? [.fromLoaderOnly] : []
                let operation = manager.loadImage(with: url, options: options) { result in
                    switch result {
                    case .success: outcomes.record((index, "success"))
                    case .failure(let error): outcomes.record((index, "\(error.code)"))
                    }
                    remaining.tick()
                }
                if random.next() % 4 == 0 { operation.cancel() }
            }
        }
        let byIndex = Dictionary(grouping: outcomes.all, by: \.0)
        #expect(byIndex.count == 2_000)
        #expect(byIndex.values.allSatisfy { $0.count == 1 }, "exactly one completion per request")
        let kinds = Dictionary(grouping: outcomes.all, by: \.1).mapValues(\.count)
        #expect(kinds.keys.allSatisfy { ["success", "cancelled", "invalidDownloadResponse"].contains($0) }, "\(kinds)")
        #expect(kinds.values.reduce(0, +) == 2_000)
        #expect(kinds["cancelled", default: 0] >= 400)
        #expect(manager.failedURLs.isEmpty, "timeouts never block")
        while manager.isRunning { await Task.yield() }
    }
}

/// Calls `done` once after `count` ticks, from whichever thread ticks last.
final class Countdown: Sendable {
    private let remaining: Locked<Int>
    private let done: @Sendable () -> Void
    init(_ count: Int, done: @escaping @Sendable () -> Void) {
        remaining = Locked(count)
        self.done = done
    }
    func tick() {
        let finished = remaining.withLock { value -> Bool in
            value -= 1
            return value == 0
        }
        if finished { done() }
    }
}

/// A plug-in key that does not say what it affects: requests carrying it never share work.
private enum UndeclaredPlugInKey: WebImageContextKey { typealias Value = String }
