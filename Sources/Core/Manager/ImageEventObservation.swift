/// A registration of an event observer (``ImageManager/addEventObserver(_:)``): keep it as long
/// as you observe. ``cancel()``, or letting it go, removes the observer.
public final class ImageEventObservation: Sendable {
    private let hub: ObserverList<ImageEvent>
    private let id: UInt64

    init(hub: ObserverList<ImageEvent>, id: UInt64) {
        self.hub = hub
        self.id = id
    }

    /// Removes the observer. An event another thread is delivering at that moment may still
    /// reach it; no event published after this returns does. Calling it again does nothing.
    public func cancel() {
        hub.remove(id)
    }

    deinit {
        hub.remove(id)
    }
}
