import WebImageCore

/// The shutdown request of `webimage serve`: the signal thread calls ``signal()``, the command
/// waits in ``wait()``.
final class ServeShutdown: Sendable {
    private struct State {
        var signals = 0
        var waiters = WaiterTable<Void, Never>()
    }

    private let state = Locked(State())

    /// Records a signal and releases ``wait()``.
    /// - Returns: `true` for the first signal, `false` for any later one.
    func signal() -> Bool {
        let (first, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            state.signals += 1
            return (state.signals == 1, state.waiters.removeAll())
        }
        for waiter in waiters { waiter.resume() }
        return first
    }

    /// Returns once ``signal()`` has been called (at once if it already was), or when the
    /// waiting task is cancelled.
    func wait() async {
        await state.wait(in: \.waiters, ifCancelled: ()) { state, _ in state.signals > 0 ? () : nil }
    }
}
