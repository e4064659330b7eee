import Dispatch
import Foundation
import WebImageCore

/// Feeds one download's data to its one incremental decoder, off the libcurl event-loop
/// queue, on a serial queue of its own. When chunks arrive faster than the decoder runs, the
/// decoder skips to the newest data (it always gets every byte so far, never a stale image
/// queued behind a newer one). After ``close()`` returns, no partial image is delivered, so
/// partial images never arrive after the final one.
final class ProgressiveFeed: Sendable {
    private let decoder: any IncrementalImageDecoder
    private let queue: DispatchQueue
    private let state = Locked<(scheduled: Bool, closed: Bool)>((false, false))

    init(decoder: any IncrementalImageDecoder, label: String) {
        self.decoder = decoder
        self.queue = DispatchQueue(label: label)
    }

    /// Schedules a decode of the data so far, unless one is already waiting to run.
    /// - Parameters:
    ///   - data: Returns every byte received so far, when the decode runs.
    ///   - deliver: Receives the partial image, on the feed's queue, no lock held.
    func update(data: @escaping @Sendable () -> Data, deliver: @escaping @Sendable (WebImage) -> Void) {
        let schedule = state.withLock { state -> Bool in
            guard !state.closed, !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        guard schedule else { return }
        queue.async { [self] in
            let closed = state.withLock { state -> Bool in
                state.scheduled = false
                return state.closed
            }
            guard !closed else { return }
            decoder.update(data: data(), finished: false)
            guard let image = decoder.currentImage() else { return }
            if state.withLock({ !$0.closed }) { deliver(image) }
        }
    }

    /// Stops delivering and waits for a decode in progress to end.
    func close() async {
        state.withLock { $0.closed = true }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}
