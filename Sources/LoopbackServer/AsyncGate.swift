import Dispatch
import WebImageCore

/// A deterministic gate for async tests: tasks that call ``wait()`` suspend until ``open()``,
/// and a test can wait until a given number of tasks have arrived at the gate.
///
/// Mocks take an optional gate so a test can hold a call in flight (to test coalescing or
/// cancellation) with no sleeps.
public final class AsyncGate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        var waiters = WaiterTable<Void, Never>()
        /// Tasks waiting for arrivals, and the count each waits for (by waiter id).
        var arrivalWatchers = WaiterTable<Void, Never>()
        var watchedCounts: [UInt64: Int] = [:]
        var threadWaiters: [DispatchSemaphore] = []

        /// Counts an arrival; the watchers whose count it reaches, taken out.
        mutating func arrive() -> [CheckedContinuation<Void, Never>] {
            arrivals += 1
            let reached = watchedCounts.filter { $0.value <= arrivals }.map(\.key)
            for id in reached { watchedCounts[id] = nil }
            return arrivalWatchers.removeAll { reached.contains($0) }
        }
    }

    private let state = Locked(State())

    /// A closed gate (or an open one with `isOpen: true`).
    public init(isOpen: Bool = false) {
        state.withLock { $0.isOpen = isOpen }
    }

    /// Suspends until the gate is open. Counts as an arrival. A cancelled waiter is released
    /// at once (it does not hold its task forever).
    public func wait() async {
        let watchers = state.withLock { $0.arrive() }
        for watcher in watchers { watcher.resume() }
        await state.wait(in: \.waiters, ifCancelled: ()) { state, _ in state.isOpen ? () : nil }
    }

    /// A thread's arrival at the gate, for threads outside Swift concurrency (the loopback
    /// server's connection threads): counts as an arrival, as ``wait()`` does, and returns a
    /// semaphore that ``open()`` signals (signalled at once when the gate is open). Waiting
    /// through a task instead would need a free thread of the cooperative pool, which a busy
    /// parallel test run (2 cores, so 2 threads) may not have for seconds.
    func arriveFromThread() -> DispatchSemaphore {
        let semaphore = DispatchSemaphore(value: 0)
        let (isOpen, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            let ready = state.arrive()
            if !state.isOpen { state.threadWaiters.append(semaphore) }
            return (state.isOpen, ready)
        }
        for watcher in watchers { watcher.resume() }
        if isOpen { semaphore.signal() }
        return semaphore
    }

    /// Opens the gate: releases every waiter, and every later ``wait()`` passes at once.
    public func open() {
        let (waiters, threads) = state.withLock { state in
            state.isOpen = true
            defer { state.threadWaiters = [] }
            return (state.waiters.removeAll(), state.threadWaiters)
        }
        for waiter in waiters { waiter.resume() }
        for thread in threads { thread.signal() }
    }

    /// Closes the gate again: later ``wait()`` calls suspend.
    public func close() {
        state.withLock { $0.isOpen = false }
    }

    /// How many calls to ``wait()`` have arrived so far.
    public var arrivals: Int {
        state.withLock { $0.arrivals }
    }

    /// Suspends until at least `count` calls to ``wait()`` have arrived, or until the calling
    /// task is cancelled (a test past its time limit fails instead of hanging the run).
    public func waitForArrivals(_ count: Int) async {
        await state.wait(in: \.arrivalWatchers, ifCancelled: (), until: { state, id in
            if state.arrivals >= count { return () }
            // A count left by a cancelled watcher is dropped by the arrival that reaches it.
            state.watchedCounts[id] = count
            return nil
        })
    }
}
