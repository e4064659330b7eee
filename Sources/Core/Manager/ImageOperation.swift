import Synchronization

/// A cancellable piece of running work: a cache query, a download, a whole image load. The
/// one operation type that caches, loaders and the manager hand back to completion-handler
/// call sites (SDWebImage's `SDWebImageOperation`).
///
/// `cancel()` may be called any number of times from any thread; the cancellation handlers run
/// once, on the thread that cancelled first, with no lock held.
public final class ImageOperation: Sendable {
    private struct State {
        var isCancelled = false
        var handlers: [@Sendable () -> Void] = []
    }

    /// The state, in the object itself (one allocation per operation: a memory hit returns a
    /// fresh one), locked as ``Locked`` locks, ThreadSanitizer annotations included.
    private let mutex = Mutex(State())

    private func withState<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        mutex.withLock { state in
            let token = Unmanaged.passUnretained(self).toOpaque()
            SanitizerAnnotations.shared.acquire?(token)
            defer { SanitizerAnnotations.shared.release?(token) }
            return body(&state)
        }
    }

    /// A new, running operation.
    public init() {}

    /// An operation that runs `body` in a new task and cancels that task when cancelled.
    public convenience init(priority: TaskPriority? = nil, _ body: @escaping @Sendable () async -> Void) {
        self.init()
        let task = Task(priority: priority) { await body() }
        onCancel { task.cancel() }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        withState { $0.isCancelled }
    }

    /// Cancels the operation: runs the cancellation handlers (once).
    public func cancel() {
        let handlers: [@Sendable () -> Void] = withState { state in
            guard !state.isCancelled else { return [] }
            state.isCancelled = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Runs `handler` when the operation is cancelled, or at once if it already is.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = withState { state in
            if state.isCancelled { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }
}
