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
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var arrivalWatchers: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var threadWaiters: [DispatchSemaphore] = []
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// A closed gate (or an open one with `isOpen: true`).
    public init(isOpen: Bool = false) {
        state.withLock { $0.isOpen = isOpen }
    }

    /// Suspends until the gate is open. Counts as an arrival. A cancelled waiter is released
    /// at once (it does not hold its task forever).
    public func wait() async {
        let id: UInt64 = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (resume, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    state.arrivals += 1
                    let ready = state.arrivalWatchers.filter { $0.count <= state.arrivals }.map(\.continuation)
                    state.arrivalWatchers.removeAll { $0.count <= state.arrivals }
                    if state.isOpen || Task.isCancelled { return (true, ready) }
                    state.waiters[id] = continuation
                    return (false, ready)
                }
                for watcher in watchers { watcher.resume() }
                if resume { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { $0.waiters.removeValue(forKey: id) }
            continuation?.resume()
        }
    }

    /// A thread's arrival at the gate, for threads outside Swift concurrency (the loopback
    /// server's connection threads): counts as an arrival, as ``wait()`` does, and returns a
    /// semaphore that ``open()`` signals (signalled at once when the gate is open). Waiting
    /// through a task instead would need a free thread of the cooperative pool, which a busy
    /// parallel test run (2 cores, so 2 threads) may not have for seconds.
    func arriveFromThread() -> DispatchSemaphore {
        let semaphore = DispatchSemaphore(value: 0)
        let (isOpen, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            state.arrivals += 1
            let ready = state.arrivalWatchers.filter { $0.count <= state.arrivals }.map(\.continuation)
            state.arrivalWatchers.removeAll { $0.count <= state.arrivals }
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
            defer {
                state.waiters = [:]
                state.threadWaiters = []
            }
            return (Array(state.waiters.values), state.threadWaiters)
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
        let id: UInt64 = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.arrivals >= count || Task.isCancelled { return true }
                    state.arrivalWatchers.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.arrivalWatchers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.arrivalWatchers.remove(at: index).continuation
            }
            continuation?.resume()
        }
    }
}
