public import Foundation

/// Where the parts serving a request report its events: the manager puts one in the context of
/// every request it runs while it has observers (``WebImageContext/imageEventSink``).
///
/// A loader, a cache or a coder that receives the request's context reports through it:
///
/// ```swift
/// context.imageEventSink?.emit(.log(level: .warning, source: "MyCache", message: "slow disk"))
/// ```
///
/// The sink fills in the request id, URL and cache key (and the time). In the context the
/// pipeline hands to the parts, the sink speaks for the shared work: an event goes to every
/// request subscribed to that work at that moment, each under its own id (see
/// ``ImageManager/addEventObserver(_:)``). No sink in the context means nobody observes: skip
/// the work of describing the event.
///
/// Thread-safety: ``emit(_:)`` may be called from any thread; it calls the manager's observers
/// on that thread, with no lock held.
public final class ImageEventSink: Sendable {
    private enum Target: Sendable {
        case request(requestID: UInt64, url: URL, cacheKey: String, handler: @Sendable (ImageEvent) -> Void)
        case observers(ObserverList<ImageEvent>, requestID: UInt64, url: URL, cacheKey: String)
        case fanOut(@Sendable (ImageEvent.Kind) -> Void)
    }

    private let target: Target

    /// A sink that stamps events with one request's id, URL and key and hands them to
    /// `handler`: for tests of a part, or for calling a part outside a manager.
    public init(requestID: UInt64, url: URL, cacheKey: String, handler: @escaping @Sendable (ImageEvent) -> Void) {
        target = .request(requestID: requestID, url: url, cacheKey: cacheKey, handler: handler)
    }

    /// A sink that publishes one request's events to a manager's observers.
    init(hub: ObserverList<ImageEvent>, requestID: UInt64, url: URL, cacheKey: String) {
        target = .observers(hub, requestID: requestID, url: url, cacheKey: cacheKey)
    }

    /// A sink that hands each kind to `fanOut`, which stamps it for each of several requests.
    init(fanOut: @escaping @Sendable (ImageEvent.Kind) -> Void) {
        target = .fanOut(fanOut)
    }

    /// Reports `kind` for the request (or every request sharing the work) this sink speaks for.
    public func emit(_ kind: ImageEvent.Kind) {
        switch target {
        case .request(let requestID, let url, let cacheKey, let handler):
            handler(ImageEvent(requestID: requestID, url: url, cacheKey: cacheKey, time: .now, kind: kind))
        case .observers(let hub, let requestID, let url, let cacheKey):
            hub.emit(ImageEvent(requestID: requestID, url: url, cacheKey: cacheKey, time: .now, kind: kind))
        case .fanOut(let fanOut):
            fanOut(kind)
        }
    }
}
