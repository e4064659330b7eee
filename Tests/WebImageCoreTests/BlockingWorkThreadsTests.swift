import Dispatch
import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// An executor's jobs run on threads of their own, never on the Swift concurrency pool's: while
/// CPU-bound jobs keep every worker of an executor as wide as the machine busy, tasks still
/// run. On Linux the pool, `DispatchQueue.global()` and concurrent queues share as many threads
/// as cores (more are added only for threads that block, not for busy ones), and long
/// transforms there stopped every task of the process, a server's deadlines included.
@Suite struct BlockingWorkThreadsTests {
    @Test(.timeLimit(.minutes(1))) func tasksRunWhileEveryWorkerComputes() async throws {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let executor = BlockingWorkExecutor(name: "BlockingWorkThreadsTests", width: width)
        let stop = Locked(false)
        let arrivals = AsyncGate()
        // The fallback when the jobs hold the pool: the jobs stop after 20 s, and the test fails
        // on the flag instead of hanging the process.
        let fallbackStopped = Locked(false)
        DispatchQueue(label: "BlockingWorkThreadsTests.fallback").asyncAfter(deadline: .now() + 20) {
            fallbackStopped.withLock { $0 = true }
            stop.withLock { $0 = true }
        }
        let jobs = (0..<width).map { _ in
            Task {
                try await executor.run {
                    Task { await arrivals.wait() }
                    // Busy, as a transform is (a thread that blocks would get a new one added).
                    while !stop.withLock({ $0 }) {}
                }
            }
        }
        await arrivals.waitForArrivals(width)
        // A task that needs a pool thread, while every worker computes.
        let answer = await Task.detached { 42 }.value
        let answeredWhileBusy = !fallbackStopped.withLock { $0 }
        stop.withLock { $0 = true }
        arrivals.open()
        for job in jobs { try await job.value }
        #expect(answer == 42)
        #expect(answeredWhileBusy, "tasks waited for the executor's busy workers: they share the Swift pool's threads")
    }
}
