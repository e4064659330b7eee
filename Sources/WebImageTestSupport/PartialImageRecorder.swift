public import WebImageCore

/// Records the partial images of a progressive load (``/WebImageCore/ImageLoadEvent/partialImage(_:)`` events)
/// and lets a test wait for the first ones, with no sleep: give ``handler`` to the load, then
/// `await waitForImages(n)`.
public final class PartialImageRecorder: Sendable {
    private struct State {
        /// The partial images received so far, in order.
    public var images: [WebImage] = []
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// An empty recorder.
    public init() {}

    /// The handler to give to the load.
    public var handler: ImageLoadEventHandler {
        { [self] event in
            guard case .partialImage(let image) = event else { return }
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.images.append(image)
                let count = state.images.count
                let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
                state.watchers.removeAll { $0.count <= count }
                return ready
            }
            for continuation in ready { continuation.resume() }
        }
    }

    /// The partial images received so far, in order.
    public var images: [WebImage] { state.withLock { $0.images } }

    /// Suspends until `count` partial images have arrived.
    public func waitForImages(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.images.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
