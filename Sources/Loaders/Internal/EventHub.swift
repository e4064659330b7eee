import WebImageCore

/// The observers of a ``Downloader``'s ``DownloadEvent``s. Observers are called on the thread
/// that produced the event, from a snapshot, never under the lock.
final class EventHub: Sendable {
    private struct State {
        var observers: [UInt64: @Sendable (DownloadEvent) -> Void] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    func add(_ observer: @escaping @Sendable (DownloadEvent) -> Void) -> UInt64 {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.observers[state.nextID] = observer
            return state.nextID
        }
    }

    func remove(_ id: UInt64) {
        state.withLock { _ = $0.observers.removeValue(forKey: id) }
    }

    /// Calls every observer with `event`, made only if there is one.
    func emit(_ event: @autoclosure () -> DownloadEvent) {
        emitIfObserved { event() }
    }

    /// Calls every observer with the event `make` returns, if there is an observer and `make`
    /// returns one (it is not called otherwise).
    func emitIfObserved(_ make: () -> DownloadEvent?) {
        let observers = state.withLock { $0.observers.isEmpty ? [] : Array($0.observers.values) }
        guard !observers.isEmpty, let event = make() else { return }
        for observer in observers { observer(event) }
    }
}
