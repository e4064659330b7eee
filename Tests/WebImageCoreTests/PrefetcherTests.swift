import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import WebImageTestSupport
@testable import WebImageCore

@Suite struct PrefetcherTests {
    let gate = AsyncGate()
    let loader: MockImageLoader
    let manager: ImageManager
    let urls = (0..<10).map { URL(string: "https://example.com/prefetch/\($0).png")! }

    init() {
        loader = MockImageLoader(gate: gate)
        manager = ImageManager(cache: MockImageCache(), loader: loader)
    }

    @Test func atMostThreeLoadsRunAtOnceByDefault() async throws {
        let prefetcher = Prefetcher(manager: manager)
        #expect(prefetcher.maxConcurrentPrefetchCount == 3)
        let running = Task { await prefetcher.prefetch(urls) }
        await gate.waitForArrivals(3)
        // Three loads are held at the gate; no fourth may start while they are.
        for _ in 0..<100 { await Task.yield() }
        #expect(loader.requestCount == 3)
        gate.open()
        let counts = await running.value
        #expect(counts == PrefetchProgress(finished: 10, skipped: 0, total: 10))
        #expect(loader.requestCount == 10)
        #expect(loader.calls.all.allSatisfy { $0.options.contains(.lowPriority) }, "prefetches run at low priority")
    }

    @Test func failuresCountAsSkippedAndProgressIsReported() async throws {
        gate.open()
        for url in urls.prefix(4) { loader.respond(to: url, with: .failure(WebImageError(.badImageData, "bad"))) }
        let seen = CallRecorder<PrefetchProgress>()
        let counts = await Prefetcher(manager: manager, maxConcurrentPrefetchCount: 2).prefetch(urls) { progress, _ in seen.record(progress) }
        #expect(counts == PrefetchProgress(finished: 10, skipped: 4, total: 10))
        #expect(seen.count == 10)
        #expect(seen.all.map(\.finished).sorted() == Array(1...10))
    }

    @Test func cancellingThePrefetchStopsItAndCompletesOnce() async throws {
        let prefetcher = Prefetcher(manager: manager)
        let completions = CallRecorder<PrefetchProgress>()
        let counts: PrefetchProgress = await withCheckedContinuation { continuation in
            let operation = prefetcher.prefetch(urls, progress: nil) { counts in
                completions.record(counts)
                continuation.resume(returning: counts)
            }
            Task {
                await gate.waitForArrivals(3)
                operation.cancel()
            }
        }
        #expect(counts.finished == 0, "the three running loads were cancelled, the rest never started")
        #expect(counts.total == 10)
        #expect(loader.requestCount == 3)
        #expect(completions.count == 1)
    }

    /// A prefetch that ends before its start call returns (here: nothing to load) leaves no
    /// entry in the prefetcher's table. The start calls run on one thread of the lowest
    /// priority, so the thread that picks up a prefetch's task often preempts the start call
    /// until the prefetch has ended (before the fix, 1,500 to 3,400 of 5,000 leaked).
    @Test func aPrefetchThatEndsAtOnceLeavesNothingBehind() async throws {
        let prefetcher = Prefetcher(manager: manager)
        let count = 5_000
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let countdown = Countdown(count) { done.resume() }
            Thread.detachNewThread {
                LowestPriority.enter()
                for _ in 0..<count {
                    prefetcher.prefetch([], progress: nil) { _ in countdown.tick() }
                }
            }
        }
        #expect(prefetcher.runningCount == 0)
    }

    @Test func cancelAllStopsEveryPrefetch() async throws {
        let prefetcher = Prefetcher(manager: manager, maxConcurrentPrefetchCount: 1)
        let done = CallRecorder<Int>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let countdown = Countdown(2) { continuation.resume() }
            prefetcher.prefetch(Array(urls.prefix(5)), progress: nil) { counts in done.record(counts.finished); countdown.tick() }
            prefetcher.prefetch(Array(urls.suffix(5)), progress: nil) { counts in done.record(counts.finished); countdown.tick() }
            Task {
                await gate.waitForArrivals(2)
                prefetcher.cancelAll()
            }
        }
        #expect(done.all == [0, 0])
    }
}

/// Gives the calling thread the lowest priority (Linux: nice 19, which applies to the calling
/// thread only), so that any thread that wakes up is likely to preempt it. Elsewhere it does
/// nothing.
enum LowestPriority {
    static func enter() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }
}
