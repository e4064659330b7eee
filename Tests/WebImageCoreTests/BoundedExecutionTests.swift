import Dispatch
import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// Counts jobs running at once and the most ever seen.
private final class ConcurrencyMeter: Sendable {
    private let state = Locked((running: 0, peak: 0, finished: 0))

    func enter() { state.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) } }
    func leave() { state.withLock { $0.running -= 1; $0.finished += 1 } }
    var peak: Int { state.withLock { $0.peak } }
    var running: Int { state.withLock { $0.running } }
    var finished: Int { state.withLock { $0.finished } }
}

/// A coder whose decodes block on a gate: a stand-in for a slow decode.
private final class GatedCoder: ImageCoder {
    let gate: ThreadGate
    let meter: ConcurrencyMeter

    init(gate: ThreadGate, meter: ConcurrencyMeter) {
        self.gate = gate
        self.meter = meter
    }

    func canDecode(_ data: Data) -> Bool { true }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        meter.enter()
        defer { meter.leave() }
        gate.wait()  // blocking: an executor's worker thread
        return TestImages.still(width: 4, height: 4)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "GatedCoder only decodes")
    }
}

/// A loader that hands its bytes to the decode stage on `executor`, as the built-in loaders do.
private struct DecodingLoader: ImageLoader {
    let coder: any ImageCoder
    let executor: BlockingWorkExecutor

    func canRequestImage(for url: URL) -> Bool { true }

    func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        let data = Data([1, 2, 3])
        let image = try await ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: coder).decodeLoadedData(data, on: executor)
        return ImageLoaderResult(image: image, data: data)
    }

    func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool { false }
}

@Suite struct BoundedExecutionTests {
    @Test func twoHundredJobsNeverRunMoreThanTheWidth() async throws {
        let executor = BlockingWorkExecutor(name: "test", width: 4)
        let gate = ThreadGate()
        let meter = ConcurrencyMeter()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await executor.run {
                        meter.enter()
                        defer { meter.leave() }
                        gate.wait()  // blocking: an executor's worker thread
                        return index
                    }
                }
            }
            // Every job is queued or running before the gate opens.
            while executor.runningCount + executor.pendingCount < 200 || meter.running < 4 { await Task.yield() }
            #expect(meter.running == 4)
            #expect(executor.pendingCount == 196)
            gate.open()
            var seen = Set<Int>()
            for try await index in group { seen.insert(index) }
            #expect(seen == Set(0..<200))
        }
        #expect(meter.peak == 4)
        #expect(executor.peakRunningCount <= 4)
    }

    @Test func aJobCancelledWhileWaitingNeverRuns() async throws {
        let executor = BlockingWorkExecutor(name: "test", width: 1)
        let gate = ThreadGate()
        let ran = Locked(false)
        let blocker = Task { try await executor.run { gate.wait() } }
        while executor.runningCount < 1 { await Task.yield() }
        let waiting = Task { try await executor.run { ran.withLock { $0 = true } } }
        while executor.pendingCount < 1 { await Task.yield() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        gate.open()
        try await blocker.value
        // An uncancellable job queued after it runs: the executor is not stuck.
        await executor.runUncancellable { }
        #expect(ran.withLock { $0 } == false)
        #expect(executor.pendingCount == 0)
    }

    @Test func widthCanBeRaised() async throws {
        let executor = BlockingWorkExecutor(name: "test", width: 1)
        let gate = ThreadGate()
        let meter = ConcurrencyMeter()
        let jobs = (0..<3).map { _ in Task { try await executor.run { meter.enter(); defer { meter.leave() }; gate.wait() } } }  // blocking: an executor's worker thread
        while meter.running < 1 || executor.pendingCount < 2 { await Task.yield() }
        executor.width = 3
        while meter.running < 3 { await Task.yield() }
        #expect(executor.width == 3)
        gate.open()
        for job in jobs { try await job.value }
        #expect(meter.finished == 3)
    }

    /// 200 concurrent decodes through the manager never run more than the processing width at
    /// once, and a memory hit issued while they hold every slot is answered at once.
    @Test func managerDecodesAreBoundedAndAMemoryHitDoesNotWait() async throws {
        let executor = BlockingWorkExecutor(name: "test.processing", width: 2)
        let gate = ThreadGate()
        let meter = ConcurrencyMeter()
        let cache = MockImageCache()
        let manager = ImageManager(cache: cache, loader: DecodingLoader(coder: GatedCoder(gate: gate, meter: meter), executor: executor))
        let hitURL = URL(string: "https://example.com/hit.png")!
        cache.preload(TestImages.still(), forKey: hitURL.absoluteString, cacheType: .memory)

        let loads = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask { _ = try await manager.loadImage(with: URL(string: "https://example.com/\(index).png")!) }
                }
                try await group.waitForAll()
            }
        }
        while meter.running < 2 || executor.pendingCount < 198 { await Task.yield() }
        // Every processing slot is held by a blocked decode: a memory hit still comes back.
        let hit = try await manager.loadImage(with: hitURL)
        #expect(hit.cacheType == .memory)
        #expect(meter.finished == 0, "no decode finished: the hit did not wait for one")
        gate.open()
        try await loads.value
        #expect(meter.finished == 200)
        #expect(meter.peak == 2)
    }
}
