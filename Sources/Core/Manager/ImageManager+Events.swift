import Foundation

/// The event stream: what happens to every request, for logs, metrics and tools.
extension ImageManager {
    /// Calls `handler` with every event of every request (``ImageEvent``) until the returned
    /// observation is cancelled or released.
    ///
    /// ```swift
    /// let observation = manager.addEventObserver { event in
    ///     if case .storeFailed(_, let key, let error) = event.kind { log.warning("\(key): \(error)") }
    /// }
    /// ```
    ///
    /// - Which requests: those that start while at least one observer is registered. A request
    ///   that starts with none makes no events at all (the check is one atomic load, so an
    ///   unobserved manager pays nothing), and neither does the load it starts, for any
    ///   requester: observe before you load.
    /// - Coalescing: requests that share one load each report their own `started`, `joined`
    ///   (all but the first), and end (`finished`, `failed` or `cancelled`). The work's events
    ///   (cache hit or miss, loader, decode, transform, stores, logs of the parts) go to every
    ///   request subscribed to the work at that moment, each under its own ``ImageEvent/requestID``:
    ///   a request that joins late misses what happened before it joined, one that left (was
    ///   cancelled) hears nothing more (but an event that was already being handed out as it
    ///   left), and those that got the result still hear about the stores. A request that arrives after the result while the stores run gets that result
    ///   at once, with its own label: `started`, `joined`, `finished` with the result's cache
    ///   type (`.none` for a fresh load).
    /// - Thread and order: `handler` is called on the thread that emits (the caller's task for
    ///   `started`, the load's task for most others, the cancelling thread for `cancelled`),
    ///   with no lock held, and may run concurrently for different requests: make it quick
    ///   and thread-safe. The events of one request arrive in the order ``ImageEvent`` lists.
    ///   Several observers are called in the order they were added.
    /// - Returns: The registration; keep it as long as you observe.
    public func addEventObserver(_ handler: @escaping @Sendable (ImageEvent) -> Void) -> ImageEventObservation {
        ImageEventObservation(hub: eventHub, id: eventHub.add(handler))
    }

    /// Every event of every request as an `AsyncStream` (see ``addEventObserver(_:)`` for which
    /// events and in which order). The stream observes from this call until it is dropped or
    /// the iterating task is cancelled.
    ///
    /// ```swift
    /// for await event in manager.events() { print(event) }
    /// ```
    ///
    /// - Parameter limit: How many events the stream holds for a slow reader (default 1024);
    ///   beyond that the oldest are dropped (`.bufferingNewest`), so a stalled reader never
    ///   holds the loads up or grows without bound.
    public func events(bufferingNewest limit: Int = 1024) -> AsyncStream<ImageEvent> {
        AsyncStream(bufferingPolicy: .bufferingNewest(limit)) { continuation in
            let observation = addEventObserver { event in continuation.yield(event) }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }

    /// The sink of request `requestID`, or `nil` when nobody observes.
    func makeEventSink(requestID: UInt64, url: URL, cacheKey: String) -> ImageEventSink? {
        guard eventHub.isObserved else { return nil }
        return ImageEventSink(hub: eventHub, requestID: requestID, url: url, cacheKey: cacheKey)
    }

    /// Reports a request refused before it started (a blocked URL): `started`, then `failed`.
    /// A `nil` or empty URL reports nothing.
    func reportRefused(_ url: URL?, options: WebImageOptions, context: WebImageContext, error: any Error) {
        guard eventHub.isObserved, let url, !url.absoluteString.isEmpty else { return }
        let key = cacheKey(for: url, options: options, context: context) ?? url.absoluteString
        let sink = makeEventSink(requestID: coordinator.makeID(), url: url, cacheKey: key)
        sink?.emit(.started)
        sink?.emit(.end(of: .failure(error), url: url))
    }
}
