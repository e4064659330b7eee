import Testing
import WebImageTestSupport
import WebImageCore

/// The one table of suspended waiters (issue 32): the HTTP server's drain, the Redis pool and the
/// test gates wait through it.
@Suite(.timeLimit(.minutes(5)))
struct WaiterTableTests {
    struct Counter {
        var value = 0
        var waiters = WaiterTable<Int, Never>()
        var failing = WaiterTable<Int, any Error>()
    }

    struct Refused: Error {}

    /// Sets the value and resumes every waiter whose wait it ends (all of them here).
    static func set(_ state: Locked<Counter>, _ value: Int) {
        let ready = state.withLock { state -> [CheckedContinuation<Int, Never>] in
            state.value = value
            return state.waiters.removeAll()
        }
        for waiter in ready { waiter.resume(returning: value) }
    }

    @Test func aReadyConditionReturnsAtOnceAndAWaiterIsResumedByTheChange() async {
        let state = Locked(Counter(value: 3))
        #expect(await state.wait(in: \.waiters, ifCancelled: -1, until: { state, _ in state.value > 0 ? state.value : nil }) == 3)
        Self.set(state, 0)
        let waited = Locked(false)
        async let result = state.wait(in: \.waiters, ifCancelled: -1, until: { state, _ in state.value > 0 ? state.value : nil }, whenWaiting: { _ in waited.withLock { $0 = true } })
        while !waited.withLock({ $0 }) { await Task.yield() }
        #expect(state.withLock { $0.waiters.count } == 1)
        Self.set(state, 7)
        #expect(await result == 7)
        #expect(state.withLock { $0.waiters.isEmpty })
    }

    @Test func aCancelledWaiterLeavesTheTableAtOnce() async {
        let state = Locked(Counter())
        let waiting = Task { await state.wait(in: \.waiters, ifCancelled: -1, until: { _, _ in nil }) }
        while state.withLock({ $0.waiters.isEmpty }) { await Task.yield() }
        waiting.cancel()
        #expect(await waiting.value == -1)
        #expect(state.withLock { $0.waiters.isEmpty })
        // Already cancelled: never joins.
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await state.wait(in: \.waiters, ifCancelled: -2, until: { _, _ in nil })
        }
        #expect(await late.value == -2)
    }

    @Test func throwingWaitsFailFromTheConditionOrWithCancellation() async {
        let state = Locked(Counter())
        await #expect(throws: Refused.self) {
            try await state.waitThrowing(in: \.failing, until: { _, _ in throw Refused() })
        }
        let waiting = Task { try await state.waitThrowing(in: \.failing, until: { _, _ in nil }) }
        while state.withLock({ $0.failing.isEmpty }) { await Task.yield() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func waitersLeaveInTheOrderTheyJoined() async {
        let state = Locked(Counter())
        var tasks: [Task<Int, Never>] = []
        for index in 0..<5 {
            tasks.append(Task { await state.wait(in: \.waiters, ifCancelled: -1, until: { _, _ in nil }) })
            while state.withLock({ $0.waiters.count }) < index + 1 { await Task.yield() }
        }
        let joined = state.withLock { $0.waiters.ids }
        for place in 0..<5 { state.withLock { $0.waiters.removeFirst() }?.resume(returning: place) }
        var places: [Int] = []
        for task in tasks { places.append(await task.value) }
        #expect(places == [0, 1, 2, 3, 4], "the first to join is the first out (ids \(joined))")
    }

    @Test(.onOwnThreads) func tenThousandWaitersAreAllResumed() async {
        let state = Locked(Counter())
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<10_000 {
                group.addTask { await state.wait(in: \.waiters, ifCancelled: -1, until: { _, _ in nil }) }
            }
            while state.withLock({ $0.waiters.count }) < 10_000 { await Task.yield() }
            #expect(Set(state.withLock { $0.waiters.ids }).count == 10_000)
            // First come, first served: each resumed with its place.
            var place = 0
            while let first = state.withLock({ $0.waiters.removeFirst() }) {
                first.resume(returning: place)
                place += 1
            }
            var results: [Int] = []
            for await value in group { results.append(value) }
            #expect(results.sorted() == Array(0..<10_000))
        }
    }
}
