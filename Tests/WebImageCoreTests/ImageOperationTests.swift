import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

@Suite struct ImageOperationTests {
    @Test func cancelRunsHandlersOnce() {
        let operation = ImageOperation()
        let calls = CallRecorder<Int>()
        operation.onCancel { calls.record(1) }
        operation.onCancel { calls.record(2) }
        #expect(!operation.isCancelled)
        operation.cancel()
        operation.cancel()
        #expect(operation.isCancelled)
        #expect(calls.all.sorted() == [1, 2])
        operation.onCancel { calls.record(3) }
        #expect(calls.all.sorted() == [1, 2, 3], "a handler added after cancel runs at once")
    }

    @Test func taskOperationCancelsItsTask() async {
        let gate = AsyncGate()
        let finished = AsyncGate()
        let sawCancellation = CallRecorder<Bool>()
        let operation = ImageOperation {
            await gate.wait()
            sawCancellation.record(Task.isCancelled)
            await finished.wait()
        }
        await gate.waitForArrivals(1)
        operation.cancel()
        await finished.waitForArrivals(1)
        #expect(sawCancellation.all == [true])
    }

    @Test func cacheCompletionHandlerIsCalledOnceWithTheResult() async {
        let cache = MockImageCache()
        cache.preload(TestImages.still(), forKey: "k")
        let result: ImageCacheResult? = await withCheckedContinuation { continuation in
            cache.queryImage(forKey: "k") { continuation.resume(returning: $0) }
        }
        #expect(result?.cacheType == .memory)
    }

    @Test func cancellingACacheQueryCompletesAtOnceWithAMiss() async {
        let gate = AsyncGate()
        let cache = MockImageCache(gate: gate)
        cache.preload(TestImages.still(), forKey: "k")
        let completions = CallRecorder<Bool>()
        let result: ImageCacheResult? = await withCheckedContinuation { continuation in
            let operation = cache.queryImage(forKey: "k") { result in
                completions.record(result != nil)
                continuation.resume(returning: result)
            }
            operation.cancel()
        }
        #expect(result == nil)
        gate.open()
        #expect(completions.count == 1)
    }

    @Test func loaderCompletionHandlerDeliversResultAndProgress() async throws {
        let loader = MockImageLoader()
        loader.sendEvents([.progress(receivedBytes: 5, expectedBytes: 10)])
        let progress = CallRecorder<Int64>()
        let result = await withCheckedContinuation { continuation in
            loader.requestImage(with: URL(string: "https://example.com/x.png")!, progress: { event in
                if case .progress(let received, _) = event { progress.record(received) }
            }) { continuation.resume(returning: $0) }
        }
        let value = try result.get()
        #expect(value.image?.pixelSize == TestImages.still().pixelSize)
        #expect(progress.all == [5])
    }

    @Test func cancellingALoaderRequestCompletesOnceWithCancelled() async throws {
        let gate = AsyncGate()
        let loader = MockImageLoader(gate: gate)
        let url = URL(string: "https://example.com/x.png")!
        let completions = CallRecorder<String>()
        let result = await withCheckedContinuation { continuation in
            let operation = loader.requestImage(with: url) { result in
                completions.record("\(result)")
                continuation.resume(returning: result)
            }
            Task {
                await gate.waitForArrivals(1)
                operation.cancel()
            }
        }
        let error = try #require(throws: WebImageError.self) { try result.get() }
        #expect(error.code == .cancelled)
        #expect(error.url == url)
        gate.open()
        #expect(completions.count == 1)
    }
}
