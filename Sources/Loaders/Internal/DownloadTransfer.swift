#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// One download of one URL, shared by every requester of that URL while it is in flight
/// (SDWebImage's `SDWebImageDownloaderOperation` with its callback table).
///
/// Life: queued -> starting -> running (one ``CurlExchange`` per hop, on the downloader's
/// ``CurlEventLoop``) -> processing (decrypt,
/// validate, decode per requester) -> finished. Requesters may join until it finishes; a
/// requester that leaves (its task was cancelled) is resumed with a cancellation at once; the
/// transfer is abandoned (dequeued, or its task cancelled) when the last requester leaves
/// before processing.
///
/// Every requester is resumed exactly once, by whoever removes it from `requesters` under the
/// lock; requesters' deliveries and user code (modifiers, decryptor, coder, progress handlers,
/// completion handlers) are only ever called with no lock held.
///
/// A started transfer holds its scheduler slot until every requester it served has been
/// resumed (see ``didComplete(_:)``).
final class DownloadTransfer: Sendable {
    enum Phase: Sendable {
        case queued, starting, running, processing, finished
    }

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

    struct State {
        var phase = Phase.queued
        /// Closed to new requesters (abandoned, failed, or done).
        var isClosed = false
        /// The exchange of the current hop.
        var exchange: CurlExchange?
        var cancelWhenStarted = false
        var requesters: [UInt64: DownloadRequester] = [:]
        /// Whether a requester with a progress handler, or one that wants partial images, ever
        /// joined: each body chunk looks at the requesters only then.
        var anyProgressHandler = false
        var anyPartialImages = false
        var response: AcceptedResponse?
        /// The request of the current hop (the first one, then each redirect's).
        var hop: CurlExchange.Request?
        /// Where the current hop's response redirects to, once its head has been accepted as a redirect.
        var redirectTarget: (url: URL, status: Int)?
        /// The total deadline of the download, from its start.
        var deadline: ContinuousClock.Instant?
        /// The body of the accepted response, as it arrives.
        var body: BodyBuffer?
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
        state.withLock { state in
            guard !state.isClosed else { return nil }
            state.requesters[requester.id] = requester
            state.anyProgressHandler = state.anyProgressHandler || requester.progress != nil
            state.anyPartialImages = state.anyPartialImages || requester.wantsPartialImages
            return state.requesters.count
        }
    }

    /// Removes a requester whose task was cancelled and resumes it with a cancellation; the
    /// last one to leave abandons the transfer. Does nothing if the requester was already served.
    func removeRequester(_ id: UInt64) {
        let removal = state.withLock { state -> (requester: DownloadRequester, phase: Phase, exchange: CurlExchange?, abandoned: Bool, remaining: Int)? in
            guard let requester = state.requesters.removeValue(forKey: id) else { return nil }
            let phase = state.phase
            let remaining = state.requesters.count
            guard remaining == 0 else { return (requester, phase, nil, false, remaining) }
            switch phase {
            case .queued:
                state.isClosed = true
                state.phase = .finished
                return (requester, phase, nil, true, 0)
            case .starting:
                state.isClosed = true
                state.cancelWhenStarted = true
                return (requester, phase, nil, true, 0)
            case .running:
                state.isClosed = true
                return (requester, phase, state.exchange, true, 0)
            case .processing, .finished:
                return (requester, phase, nil, false, 0)
            }
        }
        guard let removal else { return }
        let message = switch removal.phase {
        case .queued, .starting: "Operation cancelled by user before sending the request"
        case .running, .processing, .finished: "Operation cancelled by user during loading"
        }
        removal.requester.resume(throwing: WebImageError.cancelled(message, url: url))
        if removal.abandoned {
            environment.table.remove(self)
            if removal.phase == .queued { environment.scheduler.dequeue(self) }
            if let exchange = removal.exchange { environment.loop.cancel(exchange) }
        }
        environment.events.emit(.requesterLeft(url: url, requesterCount: removal.remaining))
    }

    /// Ends every requester with a cancellation and abandons the transfer
    /// (``Downloader/cancelAllDownloads()``).
    func cancelAll() {
        let (requesters, phase, exchange) = state.withLock { state -> ([DownloadRequester], Phase, CurlExchange?) in
            let requesters = Array(state.requesters.values)
            state.requesters = [:]
            state.isClosed = true
            let phase = state.phase
            switch phase {
            case .queued: state.phase = .finished
            case .starting: state.cancelWhenStarted = true
            case .running, .processing, .finished: break
            }
            return (requesters, phase, phase == .running ? state.exchange : nil)
        }
        environment.table.remove(self)
        if phase == .queued { environment.scheduler.dequeue(self) }
        if let exchange { environment.loop.cancel(exchange) }
        for requester in requesters {
            requester.resume(throwing: WebImageError.cancelled("Operation cancelled: every download of the downloader was cancelled", url: url))
        }
    }

    /// Sends the request. Returns `false` (and sends nothing) if every requester left while
    /// the transfer was queued. After `true`, the transfer holds a scheduler slot until its
    /// last exchange ends.
    func start() -> Bool {
        let proceed = state.withLock { state -> Bool in
            guard state.phase == .queued, !state.isClosed, !state.requesters.isEmpty else { return false }
            state.phase = .starting
            return true
        }
        guard proceed else { return false }
        let configuration = environment.configuration
        let deadline = configuration.totalTimeout.map { ContinuousClock.now + .nanoseconds(Int64(max(0, $0) * 1e9)) }
        let request = firstHop(deadline: deadline)
        let exchange = CurlExchange(request: request, owner: self)
        let cancelNow = state.withLock { state -> Bool in
            state.exchange = exchange
            state.hop = request
            state.deadline = deadline
            state.phase = .running
            return state.cancelWhenStarted
        }
        environment.events.emit(.started(url: url, request: settings.request))
        environment.loop.start(exchange)
        if cancelNow { environment.loop.cancel(exchange) }
        return true
    }

    /// The requesters' progress handlers (and, for partial images, only those that asked).
    func progressHandlers(partialImagesOnly: Bool = false) -> [ImageLoaderProgressHandler] {
        state.withLock { state in
            state.requesters.values.compactMap { requester in
                partialImagesOnly && !requester.wantsPartialImages ? nil : requester.progress
            }
        }
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
