import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// Issue 33: a running job learns that its task was cancelled
/// (`BlockingWorkExecutor.isCurrentJobCancelled`), and the resampler stops on it.
@Suite(.timeLimit(.minutes(5)))
struct BlockingWorkCancellationTests {
    @Test func aRunningJobSeesItsTaskCancelled() async throws {
        let executor = BlockingWorkExecutor(name: "test.cancel", width: 1)
        let started = AsyncGate()
        let sawCancellation = Locked(false)
        let task = Task {
            try await executor.run { () throws -> Int in
                started.open()
                // Looks until told (the test cancels the waiting task), without spinning: a
                // busy worker thread would keep the thread pool from growing.
                while !BlockingWorkExecutor.isCurrentJobCancelled { usleep(1000) }  // blocking: the job's own thread
                sawCancellation.withLock { $0 = true }
                try BlockingWorkExecutor.checkCurrentJobCancellation()
                return 1
            }
        }
        await started.wait()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(sawCancellation.withLock { $0 })
        #expect(!BlockingWorkExecutor.isCurrentJobCancelled, "off an executor's threads it is false")
        // The flag belongs to that job: the next job on the same thread starts uncancelled.
        #expect(try await executor.run { BlockingWorkExecutor.isCurrentJobCancelled } == false)
    }

    @Test func theResamplerStopsInACancelledJob() async throws {
        let executor = BlockingWorkExecutor(name: "test.cancel.resample", width: 1)
        let started = AsyncGate()
        let bitmap = TestImages.solid(RGBAColor(red: 1, green: 2, blue: 3), width: 400, height: 400)
        let task = Task {
            try await executor.run { () throws -> Bitmap in
                started.open()
                while !BlockingWorkExecutor.isCurrentJobCancelled { usleep(1000) }  // blocking: the job's own thread
                return try bitmap.resampled(to: PixelSize(width: 300, height: 300))
            }
        }
        await started.wait()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // Outside a cancelled job it resamples as before.
        #expect(try bitmap.resampled(to: PixelSize(width: 300, height: 300)).size == PixelSize(width: 300, height: 300))
    }
}
