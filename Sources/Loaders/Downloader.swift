public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
public import WebImageCore
import Synchronization

/// The HTTP(S) image loader on libcurl (SDWebImage's `SDWebImageDownloader`).
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
///   only that requester (with ``/WebImageCore/WebImageError/Code/cancelled``); the download itself is
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
/// - **Validation.** Acceptable status codes (304 gives ``/WebImageCore/WebImageError/Code/cacheNotModified``,
///   others ``/WebImageCore/WebImageError/Code/invalidDownloadStatusCode`` with the code), acceptable content
///   types, a maximum response size, bounded redirects, an idle timeout. A body shorter than
///   its `Content-Length` is an error.
/// - **Extension points.** Request modifier, response modifier and decryptor, from the
///   request's context or else from the configuration.
/// - **Progress.** Progress events per chunk (throttled by
///   ``DownloaderConfiguration/minimumProgressInterval``); with `progressiveLoad`, partial
///   images from one incremental decoder per download, never after the final image.
/// - **Decoding.** With the context's ``/WebImageCore/WebImageContext/imageCoder``, else ``coder``, with the
///   context's scale factor (or `@2x`/`@3x` from the cache key), thumbnail size and scale-down
///   limit; `avoidDecodeImage` returns the data only.
///
/// Thread-safety: every method may be called from any thread. Progress handlers, event
/// observers and modifiers run on the downloader's libcurl thread or a decoding task, never
/// under a lock of the downloader: keep them short.
///
/// Transport: libcurl's multi interface (the system libcurl, 7.88 on Debian 12), driven by one
/// event-loop thread per downloader that runs every transfer; bodies stream through libcurl's
/// write callback into the download's buffer, counted against
/// ``DownloaderConfiguration/maximumResponseSize`` as they arrive. Redirects are followed by
/// the downloader, one request per hop, each `Location` checked before it is requested
/// (http(s) only, no https -> http unless allowed, no credentials to another origin). TLS is
/// verified (unless `allowInvalidSSLCertificates`), https offers HTTP/2, connections are
/// reused, proxies come from the environment (`http_proxy`, `https_proxy`, `no_proxy`, as curl
/// reads them), and nothing is written to disk (no URL cache, cookies in memory).
///
/// Decision: the URLSession transport is gone. On Linux, swift-corelibs-foundation's
/// URLSession runs on libcurl too, but it buffered refused bodies (gigabytes for a 2 GiB
/// body refused at its headers), inflated gzip bodies before any limit, rewrote `file:`
/// redirects into http requests, made a URL cache and cookie files on disk, had no total
/// deadline, and spent 4-6x curl's CPU per megabyte in its thread hand-offs. Foundation's
/// value types (`URLRequest`, `HTTPURLResponse`, `URLCredential`, `URLCache`) stay in the API.
public final class Downloader: ImageLoader {
    /// The configuration the downloader was made with.
    public let configuration: DownloaderConfiguration
    /// The coder for requests whose context sets no ``/WebImageCore/WebImageContext/imageCoder``
    /// (the umbrella module passes `CodersManager.shared`).
    public let coder: any ImageCoder

    private let environment: DownloadEnvironment
    private let headers: Locked<[String: String]>
    private let nextRequesterID = Atomic<UInt64>(0)

    /// A downloader.
    /// - Parameters:
    ///   - configuration: The settings (default: SDWebImage's defaults).
    ///   - coder: Decodes the downloaded data when the context gives no coder.
    ///
    /// Cookies of `handleCookies` requests live in memory, for the life of the downloader.
    public convenience init(configuration: DownloaderConfiguration = DownloaderConfiguration(), coder: any ImageCoder) {
        self.init(configuration: configuration, sessionConfiguration: nil, coder: coder)
    }

    /// A downloader whose `handleCookies` requests use the cookie storage of a URLSession
    /// configuration.
    /// - Parameters:
    ///   - configuration: The settings.
    ///   - sessionConfiguration: Only its `httpCookieStorage` is used (there is no URLSession:
    ///     the transport is libcurl), for `handleCookies` requests; `nil`, or a configuration
    ///     without a storage, keeps cookies in memory. (Making `URLSessionConfiguration.default`
    ///     or `.ephemeral` creates a URL cache directory under `~/.cache`, and the shared cookie
    ///     storage writes under `~/.local/share`: pass one only if that is wanted.)
    ///   - coder: Decodes the downloaded data when the context gives no coder.
    public init(configuration: DownloaderConfiguration = DownloaderConfiguration(), sessionConfiguration: URLSessionConfiguration?, coder: any ImageCoder) {
        self.configuration = configuration
        self.coder = coder
        headers = Locked(configuration.httpHeaders)
        let loop = CurlEventLoop(maximumConnectionsPerHost: configuration.maximumConnectionsPerHost)
        let scheduler = TransferScheduler(maxConcurrent: configuration.maxConcurrentDownloads, order: configuration.executionOrder)
        environment = DownloadEnvironment(
            configuration: configuration,
            coder: coder,
            table: TransferTable(),
            scheduler: scheduler,
            events: ObserverList<DownloadEvent>(),
            loop: loop,
            responses: ResponseStore(cache: configuration.urlCache, capacity: configuration.revalidationCacheCapacity),
            cookies: CookieStore(storage: sessionConfiguration?.httpCookieStorage),
            buffers: BodyBufferPool()
        )
    }

    deinit {
        environment.loop.stop()
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
    package var runningDownloadCount: Int {
        environment.scheduler.runningCount
    }

    /// Cancels every download: every requester ends with ``/WebImageCore/WebImageError/Code/cancelled``.
    ///
    /// "Every" is every request whose call has returned before this one (the completion-handler
    /// ``beginRequest(with:options:context:progress:completion:)`` registers before it returns),
    /// queued or running; requests that have already been called back are not affected.
    public func cancelAllDownloads() {
        for transfer in environment.table.all { transfer.cancelAll() }
    }

    // MARK: ImageLoader

    /// `true` for http and https URLs (the scheme in any case: `HTTP://` too).
    public func canRequestImage(for url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Downloads and decodes the image at `url`; see the type's documentation.
    /// - Throws: ``/WebImageCore/WebImageError``: `unsupportedURL` for a URL that is not http(s); `cancelled`
    ///   when the task is cancelled ("Operation cancelled by user before sending the request"
    ///   if it had not started); `invalidDownloadOperation` when the request modifier vetoes;
    ///   `invalidDownloadStatusCode`, `cacheNotModified`, `invalidDownloadContentType`,
    ///   `invalidDownloadResponse` (refused, too large, truncated, too many redirects, network
    ///   failure with the `URLError` as ``/WebImageCore/WebImageError/underlyingError``), `badImageData`.
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
                register(ticket, url: url, options: options, context: context, progress: progress, deliversByResuming: true) { continuation.resume(with: $0) }
            }
        } onCancel: {
            ticket.cancel()
        }
    }

    /// Downloads and decodes the image at `url`, calling `completion` with the result: the
    /// completion-handler form of the async ``requestImage(with:options:context:progress:)``,
    /// with the same errors.
    ///
    /// Unlike the generic ``/WebImageCore/ImageLoader`` wrapper, which starts a task, the request is
    /// registered before this returns: ``currentDownloadCount`` counts it and
    /// ``cancelAllDownloads()`` cancels it from then on.
    ///
    /// `completion` is called exactly once, on the context's ``/WebImageCore/WebImageContext/callbackQueue``
    /// (default ``/WebImageCore/CallbackQueue/immediate``: the thread that finished the work, with no lock of
    /// the downloader held; for a request refused at once, such as an `ftp` URL or a request
    /// modifier's veto, that is before this returns). Progress events go to the same queue.
    /// Cancelling the returned operation ends this request at once with a
    /// ``/WebImageCore/WebImageError/Code/cancelled`` error, unless its result is already on its way; the
    /// download goes on while other requesters wait for it.
    ///
    /// The completion-handler API (`requestImage(with:options:context:progress:completion:)`)
    /// comes here for a `Downloader`, an `any ImageLoader` holding one, and a
    /// ``/WebImageCore/LoadersManager`` that picks it.
    public func beginRequest(
        with url: URL,
        options: WebImageOptions,
        context: WebImageContext,
        progress: ImageLoaderProgressHandler?,
        completion: @escaping @Sendable (Result<ImageLoaderResult, any Error>) -> Void
    ) -> ImageOperation {
        let operation = ImageOperation()
        let queue = context.callbackQueue ?? .immediate
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
    /// "not modified", transient network errors (``/WebImageCore/WebImageError/isTransientLoadError(_:)``:
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

    /// Refuses a ``DownloaderConfiguration/proxy`` that is not a proxy URL, or, with the
    /// address guard, one that cannot tunnel to a checked address (only HTTP proxies do).
    private static func validate(proxy: URL, guarded: Bool, for url: URL) throws {
        let scheme = proxy.scheme?.lowercased() ?? ""
        let tunnels = ["http", "https"]
        let schemes = guarded ? tunnels : tunnels + ["socks4", "socks4a", "socks5", "socks5h"]
        guard proxy.host?.isEmpty == false else {
            throw WebImageError(.invalidDownloadOperation, "Download of \(url.absoluteString) not started: DownloaderConfiguration.proxy \(proxy.absoluteString) has no host", url: url)
        }
        guard schemes.contains(scheme) else {
            let why = guarded && !scheme.isEmpty && !tunnels.contains(scheme)
                ? "with refusesNonPublicAddresses, the proxy must be http or https (a CONNECT tunnel to the checked address)"
                : "its scheme must be one of \(schemes.joined(separator: ", "))"
            throw WebImageError(.invalidDownloadOperation, "Download of \(url.absoluteString) not started: DownloaderConfiguration.proxy \(proxy.absoluteString) is refused: \(why)", url: url)
        }
    }

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
    private func register(_ ticket: RequestTicket, url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?, deliversByResuming: Bool = false, deliver: @escaping @Sendable (Result<ImageLoaderResult, any Error>) -> Void) {
        let decode = ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: environment.coder)
        var requester = DownloadRequester(id: ticket.requesterID, deliver: deliver, options: options, context: context, progress: progress, decode: decode, sharingKey: decode.sharingKey)
        requester.deliversByResuming = deliversByResuming
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
        if let proxy = environment.configuration.proxy {
            try Self.validate(proxy: proxy, guarded: environment.configuration.refusesNonPublicAddresses, for: url)
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: environment.timeoutSeconds)
        for (field, value) in httpHeaders { request.setValue(value, forHTTPHeaderField: field) }
        let cookies = options.contains(.handleCookies) ? environment.cookies : nil
        request.httpShouldHandleCookies = cookies != nil
        if let header = cookies?.header(for: url) {
            request.setValue(header, forHTTPHeaderField: "Cookie")
        }
        let refreshes = options.contains(.refreshCached) && environment.responses != nil
        var cached: CachedURLResponse?
        if refreshes, let stored = environment.responses?.response(for: url),
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
            cookies: cookies,
            verifiesCertificates: !options.contains(.allowInvalidSSLCertificates)
        )
    }

    /// The shared pieces, for the event API in `Downloader+Events.swift`.
    var events: ObserverList<DownloadEvent> { environment.events }
}
