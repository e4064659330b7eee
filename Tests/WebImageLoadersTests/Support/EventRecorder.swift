import WebImageCore
import Foundation
import WebImageLoaders

/// Records a downloader's events; tests wait for a number of events of a kind, no sleeps.
final class EventRecorder: Sendable {
    enum Kind: Sendable, Equatable {
        case queued, requesterJoined, requesterLeft, started, receivedResponse, collectedMetrics, stopped, finished
    }

    private struct Waiter {
        let kind: Kind
        let url: URL?
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private let state = Locked<(events: [DownloadEvent], waiters: [Waiter])>(([], []))

    static func kind(of event: DownloadEvent) -> Kind {
        switch event {
        case .queued: .queued
        case .requesterJoined: .requesterJoined
        case .requesterLeft: .requesterLeft
        case .started: .started
        case .receivedResponse: .receivedResponse
        case .collectedMetrics: .collectedMetrics
        case .stopped: .stopped
        case .finished: .finished
        }
    }

    private static func count(_ kind: Kind, url: URL?, in events: [DownloadEvent]) -> Int {
        events.filter { Self.kind(of: $0) == kind && (url == nil || $0.url == url) }.count
    }

    func record(_ event: DownloadEvent) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            let events = state.events
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard Self.count(waiter.kind, url: waiter.url, in: events) >= waiter.count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    var events: [DownloadEvent] {
        state.withLock { $0.events }
    }

    /// The kinds of the events about `url`, in order.
    func kinds(for url: URL) -> [Kind] {
        events.filter { $0.url == url }.map(Self.kind(of:))
    }

    /// Suspends until at least `count` events of `kind` (about `url`, if given) were recorded.
    func wait(for kind: Kind, count: Int = 1, url: URL? = nil) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if Self.count(kind, url: url, in: state.events) >= count { return true }
                state.waiters.append(Waiter(kind: kind, url: url, count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
