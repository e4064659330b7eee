import Dispatch
import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
#if canImport(Glibc)
import Glibc
#endif

/// The threads steps ran on, by name.
private final class ThreadLog: Sendable {
    private let threads = Locked([String: UInt]())

    func note(_ name: String) { threads.withLock { $0[name] = UInt(pthread_self()) } }
    subscript(name: String) -> UInt? { threads.withLock { $0[name] } }
}

/// ``BlockingWorkExecutor/run(steps:)``: work chained from one executor to another goes from
/// thread to thread without the caller's task in between, each step within its executor's
/// width, and a cancellation drops a step that waits.
@Suite struct BlockingWorkStepTests {
    /// The disk-hit shape (read, then decode): with both executors idle, one worker thread is
    /// started for the whole chain and the second step runs on it, as a worker of the second
    /// executor (within its width).
    @Test func idleExecutorsRunTheChainOnOneThread() async throws {
        let io = BlockingWorkExecutor(name: "test.io", width: 8)
        let processing = BlockingWorkExecutor(name: "test.processing", width: 2)
        let log = ThreadLog()
        let value = try await io.run(steps: { () -> BlockingWorkStep<Int> in
            log.note("read")
            return .next(on: processing) {
                log.note("decode")
                #expect(processing.runningCount == 1)
                #expect(io.runningCount == 0, "the reading thread gave its I/O slot back")
                return .done(42)
            }
        })
        #expect(value == 42)
        #expect(io.startedWorkerCount == 1)
        #expect(processing.startedWorkerCount == 0, "the reading thread decodes: no other thread is woken")
        #expect(processing.peakRunningCount == 1)
        #expect(log["read"] != nil && log["read"] == log["decode"])
    }

    /// A step handed to a busy executor waits for one of its slots (the width holds) and runs on
    /// that executor's own worker; the thread that handed it over does not wait.
    @Test func theNextStepWaitsForASlotOfItsExecutor() async throws {
        let io = BlockingWorkExecutor(name: "test.io", width: 2)
        let processing = BlockingWorkExecutor(name: "test.processing", width: 1)
        let gate = ThreadGate()
        let log = ThreadLog()
        let blocker = Task {
            try await processing.run {
                log.note("blocker")
                gate.wait()  // blocking: an executor's worker thread
            }
        }
        while processing.runningCount < 1 { await Task.yield() }
        let chain = Task {
            try await io.run(steps: { () -> BlockingWorkStep<String> in
                log.note("read")
                return .next(on: processing) {
                    log.note("decode")
                    return .done("decoded")
                }
            })
        }
        // The reading thread queues the decode and gives its slot back: it does not block on
        // the full executor.
        while processing.pendingCount < 1 || io.runningCount > 0 { await Task.yield() }
        #expect(log["decode"] == nil)
        gate.open()
        #expect(try await chain.value == "decoded")
        try await blocker.value
        #expect(processing.peakRunningCount == 1)
        #expect(processing.startedWorkerCount == 1, "only the blocker's worker: it ran the decode after the blocker")
        #expect(log["decode"] == log["blocker"])
    }

    /// When the first executor has more jobs queued, its thread stays to run them and the next
    /// step gets a thread of its own at once (it does not wait behind those jobs).
    @Test func aBusyThreadHandsTheNextStepToANewWorker() async throws {
        let io = BlockingWorkExecutor(name: "test.io", width: 1)
        let processing = BlockingWorkExecutor(name: "test.processing", width: 2)
        let gate = ThreadGate()
        let log = ThreadLog()
        let chain = Task {
            try await io.run(steps: { () -> BlockingWorkStep<Int> in
                log.note("read")
                gate.wait()  // blocking: an executor's worker thread
                return .next(on: processing) {
                    log.note("decode")
                    return .done(1)
                }
            })
        }
        while io.runningCount < 1 { await Task.yield() }
        let queued = Task { try await io.run { log.note("queued") } }
        while io.pendingCount < 1 { await Task.yield() }
        gate.open()
        #expect(try await chain.value == 1)
        try await queued.value
        #expect(processing.startedWorkerCount == 1, "the decode got a worker of its own")
        #expect(log["queued"] == log["read"], "the I/O thread went on with its own queue")
    }

    /// A chain cancelled while its next step waits for a slot: the step never runs, the caller
    /// gets a `CancellationError`, and the step is gone from the queue.
    @Test func aCancelledChainDropsTheWaitingStep() async throws {
        let io = BlockingWorkExecutor(name: "test.io", width: 2)
        let processing = BlockingWorkExecutor(name: "test.processing", width: 1)
        let gate = ThreadGate()
        let ran = Locked(false)
        let blocker = Task { try await processing.run { gate.wait() } }
        while processing.runningCount < 1 { await Task.yield() }
        let chain = Task {
            try await io.run(steps: { () -> BlockingWorkStep<Int> in
                .next(on: processing) {
                    ran.withLock { $0 = true }
                    return .done(1)
                }
            })
        }
        while processing.pendingCount < 1 { await Task.yield() }
        chain.cancel()
        await #expect(throws: CancellationError.self) { try await chain.value }
        #expect(processing.pendingCount == 0)
        gate.open()
        try await blocker.value
        await processing.runUncancellable {}
        #expect(ran.withLock { $0 } == false)
    }

    /// A task cancelled before the chain starts: no step runs.
    @Test func aCancelledTaskRunsNoStep() async throws {
        let io = BlockingWorkExecutor(name: "test.io", width: 1)
        let ran = Locked(false)
        let chain = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await io.run(steps: { () -> BlockingWorkStep<Int> in
                ran.withLock { $0 = true }
                return .done(1)
            })
        }
        chain.cancel()
        await #expect(throws: CancellationError.self) { try await chain.value }
        #expect(ran.withLock { $0 } == false)
        #expect(io.startedWorkerCount == 0)
    }

    /// A step's error reaches the caller, from the first step or a later one.
    @Test func aStepsErrorIsRethrown() async throws {
        let io = BlockingWorkExecutor(name: "test.io", width: 1)
        let processing = BlockingWorkExecutor(name: "test.processing", width: 1)
        await #expect(throws: WebImageError.self) {
            try await io.run(steps: { () -> BlockingWorkStep<Int> in
                throw WebImageError(.badImageData, "first step")
            })
        }
        let error = await #expect(throws: WebImageError.self) {
            try await io.run(steps: { () -> BlockingWorkStep<Int> in
                .next(on: processing) { throw WebImageError(.badImageData, "second step") }
            })
        }
        #expect(error?.message == "second step")
        #expect(io.runningCount == 0 && processing.runningCount == 0)
    }
}
