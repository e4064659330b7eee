import Synchronization

/// Observers of events of one kind: the manager's ``ImageEvent``s and the downloader's
/// `DownloadEvent`s (one type for both, package-internal).
///
/// ``isObserved`` is one atomic load, so that an object nobody observes pays nothing more per
/// event: it makes no event at all (``emit(_:)`` takes an autoclosure). Handlers are called with
/// no lock held, on the thread that emits, in the order they were added.
package final class ObserverList<Event>: Sendable {
    /// An observer.
    package typealias Handler = @Sendable (Event) -> Void

    private struct State {
        /// The observers' ids and handlers, in the order they were added (two arrays, so that
        /// an emit copies the handlers without building an array).
        var ids: [UInt64] = []
        var handlers: [Handler] = []
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())
    /// The number of observers, kept equal to `state.handlers.count` (written under the lock).
    private let observerCount = Atomic<Int>(0)

    /// An empty list.
    package init() {}

    /// Whether any observer is registered.
    package var isObserved: Bool { observerCount.load(ordering: .relaxed) > 0 }

    /// Registers `handler`; returns its id for ``remove(_:)``.
    package func add(_ handler: @escaping Handler) -> UInt64 {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.ids.append(state.nextID)
            state.handlers.append(handler)
            observerCount.store(state.handlers.count, ordering: .relaxed)
            return state.nextID
        }
    }

    /// Removes the observer `id` (nothing when it is gone already).
    package func remove(_ id: UInt64) {
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

    /// Calls every observer with `event`, made only if there is an observer.
    package func emit(_ event: @autoclosure () -> Event) {
        emitIfObserved { event() }
    }

    /// Calls every observer with the event `make` returns, if there is an observer and `make`
    /// returns one (it is not called otherwise).
    package func emitIfObserved(_ make: () -> Event?) {
        guard isObserved else { return }
        let handlers = state.withLock { $0.handlers }
        guard !handlers.isEmpty, let event = make() else { return }
        for handler in handlers { handler(event) }
    }
}
