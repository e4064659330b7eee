#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// One download of one URL, shared by every requester of that URL while it is in flight
/// (SDWebImage's `SDWebImageDownloaderOperation` with its callback table).
///
/// Life (``TransferLifecycle``, a value whose events return the actions taken here): queued ->
/// starting -> running (one ``CurlExchange`` per hop, on the downloader's ``CurlEventLoop``) ->
/// processing (decrypt, validate, decode per requester) -> finished. Requesters may join until
/// it finishes; a requester that leaves (its task was cancelled) is resumed with a cancellation
/// at once; the transfer is abandoned (dequeued, or its exchange cancelled) when the last
/// requester leaves before processing.
///
/// Every requester is resumed exactly once, by whoever takes it out of the lifecycle under the
/// lock; requesters' deliveries and user code (modifiers, decryptor, coder, progress handlers,
/// completion handlers) are only ever called with no lock held.
///
/// A started transfer holds its scheduler slot until every requester it served has been
/// resumed (see ``didComplete(_:)``).
final class DownloadTransfer: Sendable {
    /// What the first requester fixed for every requester of the transfer.
    struct Settings: Sendable {
        /// The request to send (headers, cookies flag, conditional headers, request modifier applied).
        let request: URLRequest
        let priority: TransferScheduler.Priority
        let responseModifier: (any ResponseModifier)?
        let decryptor: (any Decryptor)?
        /// Whether the transfer revalidates and refreshes the downloader's URL cache (`refreshCached`).
        let refreshesCache: Bool
        /// The stored response being revalidated, if any.
        let cachedResponse: CachedURLResponse?
        /// The cookie store, for `handleCookies` requests only.
        let cookies: CookieStore?
        /// Whether TLS certificates are verified (`allowInvalidSSLCertificates` turns it off).
        let verifiesCertificates: Bool
    }

    /// The lifecycle, and the transport's data of the hops and the body.
    struct State {
        var lifecycle = TransferLifecycle()
        /// The exchange of the current hop.
        var exchange: CurlExchange?
        var response: AcceptedResponse?
        /// The request of the current hop (the first one, then each redirect's).
        var hop: CurlExchange.Request?
        /// Where the current hop's response redirects to, once its head has been accepted as a redirect.
        var redirectTarget: (url: URL, status: Int)?
        /// The total deadline of the download, from its start.
        var deadline: ContinuousClock.Instant?
        /// The body of the accepted response, as it arrives.
        var body: BodyBuffer?
        /// Inflates a body sent gzip or deflate that libcurl does not decode (not asked for).
        var decoder: ContentDecoder?
        var expectedBytes: Int64?
        var failure: WebImageError?
        var redirects = 0
        /// Connections opened by the hops so far.
        var newConnections = 0
        /// Redirects followed (a next hop started).
        var followedRedirects = 0
        var lastReportedFraction: Double?
        var progressive: ProgressiveFeed?
        var progressiveSettled = false
    }

    let url: URL
    let settings: Settings
    let environment: DownloadEnvironment
    let state = Locked(State())

    init(url: URL, settings: Settings, environment: DownloadEnvironment) {
        self.url = url
        self.settings = settings
        self.environment = environment
    }

    /// Adds a requester unless the transfer is closed. Called under the table's lock.
    /// - Returns: The number of requesters now, or `nil` if the transfer is closed.
    func add(_ requester: DownloadRequester) -> Int? {
        state.withLock { $0.lifecycle.join(requester) }
    }

    /// Removes a requester whose task was cancelled and resumes it with a cancellation; the
    /// last one to leave abandons the transfer. Does nothing if the requester was already served.
    func removeRequester(_ id: UInt64) {
        let removal = state.withLock { state -> (leave: TransferLifecycle.Leave, exchange: CurlExchange?)? in
            guard let leave = state.lifecycle.leave(id: id) else { return nil }
            return (leave, leave.stop == .cancelExchange ? state.exchange : nil)
        }
        guard let (leave, exchange) = removal else { return }
        let message = switch leave.phase {
        case .queued, .starting: "Operation cancelled by user before sending the request"
        case .running, .processing, .finished: "Operation cancelled by user during loading"
        }
        leave.requester.resume(throwing: WebImageError.cancelled(message, url: url))
        if let stop = leave.stop { self.stop(stop, exchange: exchange) }
        environment.events.emit(.requesterLeft(url: url, requesterCount: leave.remaining))
    }

    /// Ends every requester with a cancellation and abandons the transfer
    /// (``Downloader/cancelAllDownloads()``).
    func cancelAll() {
        let (requesters, stop, exchange) = state.withLock { state -> ([DownloadRequester], TransferLifecycle.Stop?, CurlExchange?) in
            let (requesters, stop) = state.lifecycle.cancelAll()
            return (requesters, stop, stop == .cancelExchange ? state.exchange : nil)
        }
        environment.table.remove(self)
        if let stop { self.stop(stop, exchange: exchange) }
        for requester in requesters {
            requester.resume(throwing: WebImageError.cancelled("Operation cancelled: every download of the downloader was cancelled", url: url))
        }
    }

    /// Stops an abandoned transfer: out of the table, and out of the queue or its exchange
    /// cancelled.
    private func stop(_ stop: TransferLifecycle.Stop, exchange: CurlExchange?) {
        environment.table.remove(self)
        switch stop {
        case .dequeue: environment.scheduler.dequeue(self)
        case .cancelExchange: if let exchange { environment.loop.cancel(exchange) }
        case .cancelOnceStarted: break
        }
    }

    /// Sends the request. Returns `false` (and sends nothing) if every requester left while
    /// the transfer was queued. After `true`, the transfer holds a scheduler slot until its
    /// last exchange ends.
    func start() -> Bool {
        guard state.withLock({ $0.lifecycle.beginStarting() }) else { return false }
        let configuration = environment.configuration
        let deadline = configuration.totalTimeout.map { ContinuousClock.now + .nanoseconds(Int64(max(0, $0) * 1e9)) }
        let request = firstHop(deadline: deadline)
        let exchange = CurlExchange(request: request, owner: self)
        let cancelNow = state.withLock { state -> Bool in
            state.exchange = exchange
            state.hop = request
            state.deadline = deadline
            return state.lifecycle.started()
        }
        environment.events.emit(.started(url: url, request: settings.request))
        launch(exchange, cancelNow: cancelNow)
        return true
    }

    /// The requesters' progress handlers (and, for partial images, only those that asked).
    func progressHandlers(partialImagesOnly: Bool = false) -> [ImageLoaderProgressHandler] {
        state.withLock { $0.lifecycle.progressHandlers(partialImagesOnly: partialImagesOnly) }
    }

    /// Records the first failure (reported when the exchange ends); the caller stops the exchange.
    /// - Returns: Whether it was the first.
    @discardableResult
    func fail(_ error: WebImageError) -> Bool {
        state.withLock { state in
            guard state.failure == nil else { return false }
            state.failure = error
            return true
        }
    }
}
