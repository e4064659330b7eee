import Foundation
import WebImageCore

/// Records the progress events of one request; tests wait for partial images with no sleeps.
final class ProgressRecorder: Sendable {
    private let state = Locked<(events: [ImageLoaderEvent], waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)])>(([], []))

    /// The handler to pass as `progress`.
    var handler: ImageLoaderProgressHandler {
        { [self] event in record(event) }
    }

    private func record(_ event: ImageLoaderEvent) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            let partials = state.events.filter { if case .partialImage = $0 { true } else { false } }.count
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard partials >= waiter.count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    var events: [ImageLoaderEvent] {
        state.withLock { $0.events }
    }

    /// The (received, expected) pairs, in order.
    var progress: [(received: Int64, expected: Int64?)] {
        events.compactMap { if case .progress(let received, let expected) = $0 { (received, expected) } else { nil } }
    }

    /// The partial images, in order.
    var partialImages: [WebImage] {
        events.compactMap { if case .partialImage(let image) = $0 { image } else { nil } }
    }

    /// Suspends until at least `count` partial images arrived.
    func waitForPartialImages(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                let partials = state.events.filter { if case .partialImage = $0 { true } else { false } }.count
                if partials >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
