public import Foundation

/// One thing that happened to one ``ImageManager`` request: observe them with
/// ``ImageManager/addEventObserver(_:)`` or ``ImageManager/events(bufferingNewest:)``.
///
/// Every call of `loadImage` (async, completion-handler, `updates`, and so the prefetcher and
/// image targets) is a request with its own ``requestID``. Its events, in order:
/// 1. ``Kind/started`` (a `nil` or empty URL reports nothing at all).
/// 2. ``Kind/joined`` when the request shares a load that was already running.
/// 3. What the shared work did while the request was subscribed to it: ``Kind/cacheHit(_:)``
///    or ``Kind/cacheMiss``, ``Kind/loaderStarted``, ``Kind/loaderFinished(bytes:statusCode:)``
///    or ``Kind/loaderFailed(_:)``, ``Kind/decoded(milliseconds:pixelSize:frameCount:)``,
///    ``Kind/transformed(transformerKey:milliseconds:)``, ``Kind/log(level:source:message:)``.
/// 4. Exactly one end: ``Kind/finished(cacheType:)``, ``Kind/failed(_:)`` or
///    ``Kind/cancelled``.
/// 5. ``Kind/stored(cacheType:key:)`` or ``Kind/storeFailed(cacheType:key:error:)`` per cache
///    store: after the end, unless `waitStoreCache` makes the stores run before it.
///
/// See ``ImageManager/addEventObserver(_:)`` for how coalesced requests share events.
public struct ImageEvent: Sendable, CustomStringConvertible {
    /// The request: unique per `loadImage` call of one manager, increasing.
    public var requestID: UInt64
    /// The requested URL.
    public var url: URL
    /// The request's cache key (for a request refused before its key was made, the key its
    /// URL and context give, see ``ImageManager/cacheKey(for:options:context:)``).
    public var cacheKey: String
    /// When it happened, on the monotonic clock: subtract two events' times for a duration.
    public var time: ContinuousClock.Instant
    /// What happened.
    public var kind: Kind

    /// An event; the manager makes them, tests and custom sinks may too.
    public init(requestID: UInt64, url: URL, cacheKey: String, time: ContinuousClock.Instant = .now, kind: Kind) {
        self.requestID = requestID
        self.url = url
        self.cacheKey = cacheKey
        self.time = time
        self.kind = kind
    }

    /// One line: `#<id> <kind> <url>`, with the key when it is not the URL.
    public var description: String {
        var line = "#\(requestID) \(kind) \(url.absoluteString)"
        if cacheKey != url.absoluteString { line += " key \(String(reflecting: cacheKey))" }
        return line
    }
}
