extension Downloader {
    /// A registration of an event observer; pass it to ``Downloader/removeObserver(_:)``.
    public struct ObserverToken: Hashable, Sendable {
        let id: UInt64
    }

    /// Calls `observer` with every ``DownloadEvent`` of this downloader, on the thread that
    /// produced it (the downloader's libcurl thread, or the requesting task for `queued`), with no
    /// lock held. Keep it short.
    /// - Returns: The token that removes the observer.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (DownloadEvent) -> Void) -> ObserverToken {
        ObserverToken(id: events.add(observer))
    }

    /// Stops calling the observer registered with `token`.
    public func removeObserver(_ token: ObserverToken) {
        events.remove(token.id)
    }
}
