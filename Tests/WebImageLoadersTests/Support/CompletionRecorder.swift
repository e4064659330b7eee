import Foundation
import WebImageCore

/// Records what the completion handlers of callback-style requests received, in the order they
/// were called, under labels; tests wait for a number of completions with no sleeps.
final class CompletionRecorder: Sendable {
    private struct State {
        var completions: [(label: String, result: Result<ImageLoaderResult, any Error>)] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// A completion handler that records its result under `label`.
    func handler(_ label: String) -> @Sendable (Result<ImageLoaderResult, any Error>) -> Void {
        { [self] result in record(label, result) }
    }

    private func record(_ label: String, _ result: Result<ImageLoaderResult, any Error>) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.completions.append((label, result))
            let count = state.completions.count
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard count >= waiter.count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// The labels of the completions so far, in the order they were called.
    var labels: [String] {
        state.withLock { $0.completions.map(\.label) }
    }

    /// The results so far, in the order they were called.
    var results: [Result<ImageLoaderResult, any Error>] {
        state.withLock { $0.completions.map(\.result) }
    }

    /// Suspends until at least `count` completions were recorded.
    func wait(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.completions.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
