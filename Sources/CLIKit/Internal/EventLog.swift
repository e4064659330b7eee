import SwiftWebImage

/// What `fetch` and `prefetch` print about the manager's requests on standard error, from its
/// event stream (``ImageManager/addEventObserver(_:)``):
/// - always, a store that failed: `webimage fetch: warning: <url>: not stored in the disk cache
///   under key "<key>": <reason>` (the image is still fetched; the exit status is not changed);
/// - with `--verbose`, every event, one line each: `webimage fetch: +12.3 ms #4 cacheMiss <url>`
///   (the time since the command started, the request, the event).
///
/// It observes from ``init(manager:command:verbose:console:)`` until ``stop()``.
final class EventLog: Sendable {
    private let observation: ImageEventObservation

    /// Starts observing `manager`.
    init(manager: ImageManager, command: String, verbose: Bool, console: Console) {
        let started = ContinuousClock.now
        observation = manager.addEventObserver { event in
            if verbose {
                console.printError("webimage \(command): +\((event.time - started).millisecondsText) \(event)")
            } else if case .storeFailed(let cacheType, let key, let error) = event.kind {
                console.printError("webimage \(command): warning: \(event.url.absoluteString): not stored in the \(Self.tiers(cacheType)) under key \(String(reflecting: key)): \(error.message)")
            }
        }
    }

    /// Stops observing.
    func stop() {
        observation.cancel()
    }

    /// The tiers a store was for, in words: `memory cache`, `disk cache`, `memory and disk cache`.
    static func tiers(_ cacheType: ImageCacheType) -> String {
        switch cacheType {
        case .memory: "memory cache"
        case .disk: "disk cache"
        case .all: "memory and disk cache"
        case .none: "cache"
        }
    }
}
