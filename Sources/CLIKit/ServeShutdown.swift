import WebImageCore

/// The shutdown request of `webimage serve`: the signal thread calls ``signal()``, the command
/// waits in ``wait()``.
final class ServeShutdown: Sendable {
    private struct State {
        var signals = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Records a signal and releases ``wait()``.
    /// - Returns: `true` for the first signal, `false` for any later one.
    func signal() -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            state.signals += 1
            defer { state.waiter = nil }
            return (state.signals == 1, state.waiter)
        }
        waiter?.resume()
        return first
    }

    /// Returns once ``signal()`` has been called (at once if it already was). One waiter.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let signalled = state.withLock { state -> Bool in
                if state.signals > 0 { return true }
                state.waiter = continuation
                return false
            }
            if signalled { continuation.resume() }
        }
    }
}
