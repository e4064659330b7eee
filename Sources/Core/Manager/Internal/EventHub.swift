import Synchronization

/// The observers of one manager's events (see ``ImageManager/addEventObserver(_:)``).
///
/// ``isObserved`` is one atomic load, so that a manager nobody observes pays nothing more per
/// request: it makes no sink and no event. Handlers are called with no lock held, on the
/// thread that publishes, in the order they were added.
final class EventHub: Sendable {
    typealias Handler = @Sendable (ImageEvent) -> Void

    private struct State {
        /// The observers' ids and handlers, in the order they were added (two arrays, so that
        /// a publish copies the handlers without building an array).
        var ids: [UInt64] = []
        var handlers: [Handler] = []
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())
    /// The number of observers, kept equal to `state.handlers.count` (written under the lock).
    private let observerCount = Atomic<Int>(0)

    /// Whether any observer is registered.
    var isObserved: Bool { observerCount.load(ordering: .relaxed) > 0 }

    /// Registers `handler`; returns its id for ``remove(_:)``.
    func add(_ handler: @escaping Handler) -> UInt64 {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.ids.append(state.nextID)
            state.handlers.append(handler)
            observerCount.store(state.handlers.count, ordering: .relaxed)
            return state.nextID
        }
    }

    /// Removes the observer `id` (nothing when it is gone already).
    func remove(_ id: UInt64) {
        // The handler is released after the lock: its captures may run code when they go.
        let removed = state.withLock { state -> Handler? in
            guard let index = state.ids.firstIndex(of: id) else { return nil }
            state.ids.remove(at: index)
            let handler = state.handlers.remove(at: index)
            observerCount.store(state.handlers.count, ordering: .relaxed)
            return handler
        }
        _ = removed
    }

    /// Calls every observer with `event`.
    func publish(_ event: ImageEvent) {
        guard isObserved else { return }
        let handlers = state.withLock { $0.handlers }
        for handler in handlers { handler(event) }
    }
}
