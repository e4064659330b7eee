public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
public import WebImageCore
import Synchronization

/// The HTTP(S) image loader on URLSession (SDWebImage's `SDWebImageDownloader`).
///
/// ```swift
/// let downloader = Downloader(coder: CodersManager.shared)
/// let result = try await downloader.requestImage(with: url, options: [.progressiveLoad], context: context) { event in
///     if case .partialImage(let image) = event { show(image) }
/// }
/// ```
///
/// - **One download per URL.** A request for a URL already in flight (queued, downloading or
///   decoding) joins that download. Each requester's task is its token: cancelling it ends
///   only that requester (with ``WebImageError/Code/cancelled``); the download itself is
///   cancelled when its last requester leaves (a queued one is dequeued, a running one's
///   connection is closed). A joining request shares the first requester's HTTP request
///   (headers, request modifier, cookies flag, `refreshCached`), response modifier and
///   decryptor; decoding is per requester (its own coder, scale, thumbnail size), and requesters
///   whose decode settings are equal share one decode.
/// - **Scheduling.** At most ``maxConcurrentDownloads`` run at once, in FIFO or LIFO order
///   (``DownloaderConfiguration/executionOrder``); `highPriority` requests start before the
///   others, `lowPriority` after them. ``isSuspended`` holds queued downloads back. A download
///   keeps its slot until its requesters have been called back, so with one slot the
///   completions come in the order the downloads started.
/// - **Validation.** Acceptable status codes (304 gives ``WebImageError/Code/cacheNotModified``,
///   others ``WebImageError/Code/invalidDownloadStatusCode`` with the code), acceptable content
///   types, a maximum response size, bounded redirects, an idle timeout. A body shorter than
///   its `Content-Length` is an error.
/// - **Extension points.** Request modifier, response modifier and decryptor, from the
///   request's context or else from the configuration.
/// - **Progress.** Progress events per chunk (throttled by
///   ``DownloaderConfiguration/minimumProgressInterval``); with `progressiveLoad`, partial
///   images from one incremental decoder per download, never after the final image.
/// - **Decoding.** With the context's ``WebImageContext/imageCoder``, else ``coder``, with the
///   context's scale factor (or `@2x`/`@3x` from the cache key), thumbnail size and scale-down
///   limit; `avoidDecodeImage` returns the data only.
///
/// Thread-safety: every method may be called from any thread. Progress handlers, event
/// observers and modifiers run on URLSession's delegate queue or a decoding task, never under
/// a lock of the downloader. The downloader owns its `URLSession`, invalidated on deinit.
///
/// Linux notes (swift-corelibs-foundation 6.3, verified by this module's tests): the delegate
/// API delivers chunks, responses, redirects and Basic-auth challenges. It ignores the response
/// disposition (a refused response is cancelled through its task instead); counts the timeout
/// in whole seconds (rounded up here); never stores responses of delegate-based tasks in a
/// `URLCache` (the downloader keeps its own, see ``DownloaderConfiguration/urlCache``); ignores
/// `URLRequest.httpShouldHandleCookies` (the downloader sends and stores cookies itself);
/// enforces its own connections-per-host limit (lifted here: the scheduler is the limit);
/// hangs on `.performDefaultHandling` for an authentication challenge and stops on Digest
/// credentials (the downloader answers Basic only, else refuses: the 401 is the error); and
/// crashes when a task is cancelled during a pending redirect callback (cancels are ordered on
/// the delegate queue until the final response). Throughput is URLSession's: on a 2-core
/// machine, 200 loopback downloads of 1 MB, 6 at a time, take about 0.4 s and 1.8 ms of CPU
/// per MB, the same as bare `URLSession.data(from:)`, against curl's 0.1-0.2 s.
public final class Downloader: ImageLoader {
    /// The configuration the downloader was made with.
    public let configuration: DownloaderConfiguration
    /// The coder for requests whose context sets no ``WebImageContext/imageCoder``
    /// (the umbrella module passes `CodersManager.shared`).
    public let coder: any ImageCoder

    private let session: URLSession
    private let environment: DownloadEnvironment
    /// The session configuration's cookie storage, used for `handleCookies` requests.
    private let cookieStorage: HTTPCookieStorage?
    private let headers: Locked<[String: String]>
    private let nextRequesterID = Atomic<UInt64>(0)

    /// A downloader.
    /// - Parameters:
    ///   - configuration: The settings (default: SDWebImage's defaults).
    ///   - sessionConfiguration: The base of the URLSession's configuration (default `.default`).
    ///     It is copied. Its cookie storage (the shared one for `.default`; pass `.ephemeral`
    ///     for private cookies) serves `handleCookies` requests only: the downloader sends and
    ///     stores cookies itself, per request, because swift-corelibs-foundation ignores
    ///     `URLRequest.httpShouldHandleCookies`. The session's URL cache is turned off, its
    ///     timeout follows the configuration, and its connections per host are not limited
    ///     (the downloader's scheduler is the limit).
    ///   - coder: Decodes the downloaded data when the context gives no coder.
    public init(configuration: DownloaderConfiguration = DownloaderConfiguration(), sessionConfiguration: URLSessionConfiguration = .default, coder: any ImageCoder) {
        self.configuration = configuration
        self.coder = coder
        headers = Locked(configuration.httpHeaders)
        let delegate = SessionDelegate()
        let queue = OperationQueue()
        queue.name = "SwiftWebImage.Downloader.delegate"
        queue.maxConcurrentOperationCount = 1
        let sessionConfiguration = (sessionConfiguration.copy() as? URLSessionConfiguration) ?? .default
        cookieStorage = sessionConfiguration.httpCookieStorage
        // The downloader handles cookies per request (see DownloadTransfer.storeCookies).
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.timeoutIntervalForRequest = max(1, configuration.downloadTimeout.rounded(.up))
        // The scheduler is the limit. swift-corelibs-foundation enforces this one too (6 by
        // default), which would silently cap a later raise of maxConcurrentDownloads.
        sessionConfiguration.httpMaximumConnectionsPerHost = 1 << 16
        session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
        let scheduler = TransferScheduler(maxConcurrent: configuration.maxConcurrentDownloads, order: configuration.executionOrder, session: session, delegate: delegate)
        environment = DownloadEnvironment(configuration: configuration, coder: coder, table: TransferTable(), scheduler: scheduler, events: EventHub(), delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    // MARK: Settings that can change

    /// The most downloads that run at once (at least 1). Raising it starts queued downloads.
    public var maxConcurrentDownloads: Int {
        get { environment.scheduler.maxConcurrent }
        set { environment.scheduler.maxConcurrent = newValue }
    }

    /// Whether queued downloads are held back (SDWebImage's `setSuspended:`): running downloads
    /// go on, new ones wait in the queue until this is `false` again.
    public var isSuspended: Bool {
        get { environment.scheduler.isSuspended }
        set { environment.scheduler.isSuspended = newValue }
    }

    /// Sets (or with `nil` removes) an HTTP header field sent with every later request.
    public func setValue(_ value: String?, forHTTPHeaderField field: String) {
        headers.withLock { headers in
            for key in headers.keys where key.caseInsensitiveCompare(field) == .orderedSame { headers[key] = nil }
            if let value { headers[field] = value }
        }
    }

    /// The value of an HTTP header field sent with every request.
    public func value(forHTTPHeaderField field: String) -> String? {
        headers.withLock { headers in
            headers.first { $0.key.caseInsensitiveCompare(field) == .orderedSame }?.value
        }
    }

    /// The HTTP header fields sent with every request.
    public var httpHeaders: [String: String] {
        headers.withLock { $0 }
    }

    // MARK: State

    /// The downloads in flight: queued, downloading or decoding (SDWebImage's
    /// `currentDownloadCount`). Requests that joined another download do not count. A request
    /// counts as soon as the call that made it has returned (for the async API: as soon as it
    /// has started).
    public var currentDownloadCount: Int {
        environment.table.count
    }

    /// The downloads that hold one of the ``maxConcurrentDownloads`` slots: on the network, or
    /// done with it and still decoding and delivering their results (a slot is freed once
    /// every requester of the download has been called back).
    public var runningDownloadCount: Int {
        environment.scheduler.runningCount
    }

    /// Cancels every download: every requester ends with ``WebImageError/Code/cancelled``.
    ///
    /// "Every" is every request whose call has returned before this one (the completion-handler
    /// ``requestImage(with:options:context:progress:completion:)`` registers before it returns),
    /// queued or running; requests that have already been called back are not affected.
    public func cancelAllDownloads() {
        for transfer in environment.table.all { transfer.cancelAll() }
    }

    // MARK: ImageLoader

    /// `true` for http and https URLs.
    public func canRequestImage(for url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Downloads and decodes the image at `url`; see the type's documentation.
    /// - Throws: ``WebImageError``: `unsupportedURL` for a URL that is not http(s); `cancelled`
    ///   when the task is cancelled ("Operation cancelled by user before sending the request"
    ///   if it had not started); `invalidDownloadOperation` when the request modifier vetoes;
    ///   `invalidDownloadStatusCode`, `cacheNotModified`, `invalidDownloadContentType`,
    ///   `invalidDownloadResponse` (refused, too large, truncated, too many redirects, network
    ///   failure with the `URLError` as ``WebImageError/underlyingError``), `badImageData`.
    public func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        guard canRequestImage(for: url) else {
            throw Self.unsupported(url)
        }
        guard !Task.isCancelled else {
            throw WebImageError.cancelled("Operation cancelled by user before sending the request", url: url)
        }
        let ticket = makeTicket()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ImageLoaderResult, any Error>) in
                register(ticket, url: url, options: options, context: context, progress: progress) { continuation.resume(with: $0) }
            }
        } onCancel: {
            ticket.cancel()
        }
    }

    /// Downloads and decodes the image at `url`, calling `completion` with the result: the
    /// completion-handler form of the async ``requestImage(with:options:context:progress:)``,
    /// with the same errors.
    ///
    /// Unlike the generic ``ImageLoader`` wrapper, which starts a task, the request is
    /// registered before this returns: ``currentDownloadCount`` counts it and
    /// ``cancelAllDownloads()`` cancels it from then on.
    ///
    /// `completion` is called exactly once, on the context's ``WebImageContext/callbackQueue``
    /// (default ``CallbackQueue/immediate``: the thread that finished the work, with no lock of
    /// the downloader held; for a request refused at once, such as an `ftp` URL or a request
    /// modifier's veto, that is before this returns). Progress events go to the same queue.
    /// Cancelling the returned operation ends this request at once with a
    /// ``WebImageError/Code/cancelled`` error, unless its result is already on its way; the
    /// download goes on while other requesters wait for it.
    ///
    /// The completion-handler API (`requestImage(with:options:context:progress:completion:)`)
    /// comes here for a `Downloader`, an `any ImageLoader` holding one, and a
    /// ``LoadersManager`` that picks it.
    public func beginRequest(
        with url: URL,
        options: WebImageOptions,
        context: WebImageContext,
        progress: ImageLoaderProgressHandler?,
        completion: @escaping @Sendable (Result<ImageLoaderResult, any Error>) -> Void
    ) -> ImageOperation {
        let queue = context.callbackQueue ?? .immediate
        let operation = ImageOperation()
        guard canRequestImage(for: url) else {
            let error = Self.unsupported(url)
            queue.execute { completion(.failure(error)) }
            return operation
        }
        let forwardedProgress: ImageLoaderProgressHandler? = progress.map { progress in
            { @Sendable event in queue.execute { progress(event) } }
        }
        let ticket = makeTicket()
        register(ticket, url: url, options: options, context: context, progress: forwardedProgress) { result in
            queue.execute { completion(result) }
        }
        operation.onCancel { ticket.cancel() }
        return operation
    }

    /// Whether a failure blocks `url` until `retryFailed`: every failure except cancellations,
    /// "not modified", transient network errors (``WebImageError/isTransientLoadError(_:)``:
    /// timeouts, lost connections, truncated bodies...) and HTTP statuses that say "try later"
    /// (408, 429 and 5xx: our decision, the server may recover; a 404 blocks).
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        if let error = error as? WebImageError, error.code == .invalidDownloadStatusCode, let status = error.statusCode,
           status == 408 || status == 429 || (500..<600).contains(status) {
            return false
        }
        return !WebImageError.isTransientLoadError(error)
    }

    // MARK: Internals

    /// The error for a URL that is not http(s).
    private static func unsupported(_ url: URL) -> WebImageError {
        WebImageError(.unsupportedURL, "Downloader loads http and https URLs, not \(url.absoluteString)", url: url)
    }

    /// A ticket with a new requester id.
    private func makeTicket() -> RequestTicket {
        RequestTicket(requesterID: nextRequesterID.add(1, ordering: .relaxed).newValue)
    }

    /// Registers a request synchronously: joins the transfer in flight for `url` or queues a
    /// new one, and attaches `ticket` to it. A refusal (the request modifier's veto) is
    /// delivered at once.
    private func register(_ ticket: RequestTicket, url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?, deliver: @escaping @Sendable (Result<ImageLoaderResult, any Error>) -> Void) {
        let decode = ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: environment.coder)
        let requester = DownloadRequester(id: ticket.requesterID, deliver: deliver, options: options, context: context, progress: progress, decode: decode, sharingKey: decode.sharingKey)
        do {
            ticket.attach(to: try join(url, requester))
        } catch {
            deliver(.failure(error))
        }
    }

    /// Joins the transfer in flight for `url`, or creates, registers and queues one.
    private func join(_ url: URL, _ requester: DownloadRequester) throws -> DownloadTransfer {
        if let (transfer, count) = environment.table.join(url, requester) {
            environment.events.emit(.requesterJoined(url: url, requesterCount: count))
            if requester.wantsPartialImages { transfer.updateProgressive() }
            return transfer
        }
        let settings = try makeSettings(for: url, options: requester.options, context: requester.context)
        let (transfer, count, isNew) = environment.table.insert(DownloadTransfer(url: url, settings: settings, environment: environment), with: requester)
        if isNew {
            environment.scheduler.enqueue(transfer, priority: settings.priority) { [environment] in
                environment.events.emit(.queued(url: url))
            }
        } else {
            environment.events.emit(.requesterJoined(url: url, requesterCount: count))
            if requester.wantsPartialImages { transfer.updateProgressive() }
        }
        return transfer
    }

    /// The request and shared settings of a new transfer (calls the request modifier).
    private func makeSettings(for url: URL, options: WebImageOptions, context: WebImageContext) throws -> DownloadTransfer.Settings {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: environment.timeoutSeconds)
        for (field, value) in httpHeaders { request.setValue(value, forHTTPHeaderField: field) }
        let cookies = options.contains(.handleCookies) ? cookieStorage : nil
        request.httpShouldHandleCookies = cookies != nil
        if let cookies {
            for (field, value) in HTTPCookie.requestHeaderFields(with: cookies.cookies(for: url) ?? []) {
                request.setValue(value, forHTTPHeaderField: field)
            }
        }
        let refreshes = options.contains(.refreshCached) && configuration.urlCache != nil
        var cached: CachedURLResponse?
        if refreshes, let stored = configuration.urlCache?.cachedResponse(for: URLRequest(url: url)),
           let response = stored.response as? HTTPURLResponse {
            cached = stored
            if let tag = response.value(forHTTPHeaderField: "ETag") {
                request.setValue(tag, forHTTPHeaderField: "If-None-Match")
            }
            if let date = response.value(forHTTPHeaderField: "Last-Modified") {
                request.setValue(date, forHTTPHeaderField: "If-Modified-Since")
            }
        }
        if let modifier = context.downloadRequestModifier ?? configuration.requestModifier {
            guard let modified = modifier.modifiedRequest(request) else {
                throw WebImageError(.invalidDownloadOperation, "Download of \(url.absoluteString) cancelled: the request modifier returned nil", url: url)
            }
            request = modified
        }
        let priority: TransferScheduler.Priority = options.contains(.highPriority) ? .high : options.contains(.lowPriority) ? .low : .normal
        return DownloadTransfer.Settings(
            request: request,
            priority: priority,
            responseModifier: context.downloadResponseModifier ?? configuration.responseModifier,
            decryptor: context.downloadDecryptor ?? configuration.decryptor,
            refreshesCache: refreshes,
            cachedResponse: cached,
            cookieStorage: cookies
        )
    }

    /// The shared pieces, for the event API in `Downloader+Events.swift`.
    var events: EventHub { environment.events }
}
