import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// The one shared-work primitive (issue 32): join, leave, cancel when abandoned, priority,
/// after the end, and many subscribers.
@Suite(.timeLimit(.minutes(5)))
struct SharedWorkTests {
    struct Failure: Error, Equatable {}

    /// Waits until `work` has `count` subscribers on `key`.
    static func waitForSubscribers(_ work: SharedWork<String, Int>, _ key: String, _ count: Int) async {
        while work.subscriberCount(for: key) < count { await Task.yield() }
    }

    @Test func subscribersShareOneRunAndItsError() async throws {
        let work = SharedWork<String, Int>()
        let gate = AsyncGate(), runs = Locked(0)
        let body: @Sendable () async throws -> Int = {
            runs.withLock { $0 += 1 }
            await gate.wait()
            return 42
        }
        async let first = work.value(for: "a", work: body)
        async let second = work.value(for: "a", work: body)
        await Self.waitForSubscribers(work, "a", 2)
        gate.open()
        #expect(try await first == 42)
        #expect(try await second == 42)
        #expect(runs.withLock { $0 } == 1 && work.joinCount == 1 && work.runningCount == 0)
        await #expect(throws: Failure.self) { try await work.value(for: "b") { throw Failure() } }
    }

    @Test func aLeavingSubscriberDoesNotStopTheOthersButTheLastOneCancelsTheWork() async throws {
        let work = SharedWork<String, Int>()
        let gate = AsyncGate(), cancelled = AsyncGate()
        let body: @Sendable () async throws -> Int = {
            await gate.wait()
            if Task.isCancelled { cancelled.open(); throw CancellationError() }
            return 7
        }
        let leaving = Task { try await work.value(for: "k", work: body) }
        let staying = Task { try await work.value(for: "k", work: body) }
        await Self.waitForSubscribers(work, "k", 2)
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(work.subscriberCount(for: "k") == 1)
        gate.open()
        #expect(try await staying.value == 7)

        // The last subscriber leaves: the work is cancelled and forgotten.
        let gate2 = AsyncGate()
        let lone = Task { try await work.value(for: "k") { await gate2.wait(); if Task.isCancelled { cancelled.open() }; return 1 } }
        await Self.waitForSubscribers(work, "k", 1)
        lone.cancel()
        await #expect(throws: CancellationError.self) { try await lone.value }
        #expect(work.runningCount == 0)
        gate2.open()
        await cancelled.wait()
    }

    @Test func abandonedWorkRunsToItsEndWhenAsked() async throws {
        let work = SharedWork<String, Int>(cancelsAbandonedWork: false)
        let gate = AsyncGate(), done = AsyncGate()
        let lone = Task { try await work.value(for: "k") { await gate.wait(); if !Task.isCancelled { done.open() }; return 1 } }
        await Self.waitForSubscribers(work, "k", 1)
        lone.cancel()
        await #expect(throws: CancellationError.self) { try await lone.value }
        gate.open()
        await done.wait()
    }

    @Test func aLateSubscriberStartsTheWorkAgain() async throws {
        let work = SharedWork<String, Int>()
        let runs = Locked(0)
        let body: @Sendable () async throws -> Int = { runs.withLock { $0 += 1; return $0 } }
        #expect(try await work.value(for: "k", work: body) == 1)
        #expect(try await work.value(for: "k", work: body) == 2)
    }

    @Test func aHigherPrioritySubscriberRaisesTheWork() async throws {
        let work = SharedWork<String, Int>()
        let gate = AsyncGate()
        let seen = Locked<TaskPriority?>(nil)
        let body: @Sendable () async throws -> Int = {
            await gate.wait()
            seen.withLock { $0 = Task.currentPriority }
            return 0
        }
        let low = Task(priority: .low) { try await work.value(for: "k", work: body) }
        await Self.waitForSubscribers(work, "k", 1)
        let high = Task(priority: .high) { try await work.value(for: "k", work: body) }
        await Self.waitForSubscribers(work, "k", 2)
        gate.open()
        _ = try await (low.value, high.value)
        #expect(seen.withLock { $0 } == .high)
    }

    @Test(.onOwnThreads) func tenThousandSubscribersGetOneRunsValue() async throws {
        let work = SharedWork<String, Int>()
        let gate = AsyncGate(), runs = Locked(0)
        let body: @Sendable () async throws -> Int = {
            runs.withLock { $0 += 1 }
            await gate.wait()
            return 5
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10_000 { group.addTask { try await work.value(for: "k", work: body) } }
            await Self.waitForSubscribers(work, "k", 10_000)
            gate.open()
            var total = 0
            for try await value in group { total += value }
            #expect(total == 50_000)
        }
        #expect(runs.withLock { $0 } == 1)
    }
}
