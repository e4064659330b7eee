import WebImageCore

/// Runs work against a deadline without waiting for the work to notice it: the caller gets the
/// work's result or, once `deadline` has passed, the timeout's, whichever comes first; the
/// losing work is cancelled and its result dropped. (A task group would wait for the cancelled
/// child, and blocking work such as an encode cannot stop halfway.) Cancelling the calling task
/// cancels the work.
enum DeadlineRace {
    private final class Race<Value: Sendable>: Sendable {
        let continuation = Locked<CheckedContinuation<Value, Never>?>(nil)
        let tasks = Locked<(work: Task<Void, Never>?, timer: Task<Void, Never>?, cancelled: Bool)>((nil, nil, false))

        func finish(_ value: Value) -> Bool {
            guard let continuation = continuation.withLock({ state -> CheckedContinuation<Value, Never>? in
                defer { state = nil }
                return state
            }) else { return false }
            continuation.resume(returning: value)
            return true
        }

        var isFinished: Bool { continuation.withLock { $0 == nil } }

        func cancelAll() {
            let (work, timer) = tasks.withLock { state -> (Task<Void, Never>?, Task<Void, Never>?) in
                state.cancelled = true
                return (state.work, state.timer)
            }
            work?.cancel()
            timer?.cancel()
        }
    }

    static func run<Value: Sendable>(
        deadline: Duration,
        _ work: @escaping @Sendable () async -> Value,
        onTimeout: @escaping @Sendable () -> Value
    ) async -> Value {
        let race = Race<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                race.continuation.withLock { $0 = continuation }
                let workTask = Task {
                    let value = await work()
                    if race.finish(value) {
                        race.tasks.withLock { $0.timer }?.cancel()
                    }
                }
                let timer = Task {
                    do {
                        try await Task.sleep(for: deadline)
                    } catch {
                        return
                    }
                    if race.finish(onTimeout()) {
                        workTask.cancel()
                    }
                }
                let cancelled = race.tasks.withLock { state -> Bool in
                    state.work = workTask
                    state.timer = timer
                    return state.cancelled
                }
                if cancelled {
                    workTask.cancel()
                    timer.cancel()
                } else if race.isFinished {
                    // The work ended before the timer was stored: stop the timer now.
                    timer.cancel()
                }
            }
        } onCancel: {
            race.cancelAll()
        }
    }
}
