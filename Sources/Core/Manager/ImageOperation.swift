
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

    private let state = Locked(State())

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
        state.withLock { $0.isCancelled }
    }

    /// Cancels the operation: runs the cancellation handlers (once).
    public func cancel() {
        let handlers: [@Sendable () -> Void] = state.withLock { state in
            guard !state.isCancelled else { return [] }
            state.isCancelled = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Runs `handler` when the operation is cancelled, or at once if it already is.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock { state in
            if state.isCancelled { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }
}
