#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// One download of one URL, shared by every requester of that URL while it is in flight
/// (SDWebImage's `SDWebImageDownloaderOperation` with its callback table).
///
/// Life: queued -> starting -> running (a URLSession data task) -> processing (decrypt,
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
/// resumed (see ``didComplete(error:task:)``).
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
        /// The cookie storage, for `handleCookies` requests only.
        let cookieStorage: HTTPCookieStorage?
    }

    struct State {
        var phase = Phase.queued
        /// Closed to new requesters (abandoned, failed, or done).
        var isClosed = false
        var task: URLSessionTask?
        var cancelWhenStarted = false
        /// Set just before the task is cancelled (on the delegate queue, or once the final response is in).
        var taskCancelled = false
        var requesters: [UInt64: DownloadRequester] = [:]
        var response: HTTPURLResponse?
        /// The response is a 401/407 that an authentication retry may replace.
        var awaitsAuthentication = false
        var data = Data()
        var expectedBytes: Int64?
        var failure: WebImageError?
        var redirects = 0
        var lastReportedFraction: Double?
        var progressive: ProgressiveFeed?
        var progressiveSettled = false
        /// When the task last sent anything (started, a response, data): for the idle watchdog.
        var lastActivity = ContinuousClock.now
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
            return state.requesters.count
        }
    }

    /// Removes a requester whose task was cancelled and resumes it with a cancellation; the
    /// last one to leave abandons the transfer. Does nothing if the requester was already served.
    func removeRequester(_ id: UInt64) {
        let removal = state.withLock { state -> (requester: DownloadRequester, phase: Phase, task: URLSessionTask?, abandoned: Bool, remaining: Int)? in
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
                return (requester, phase, state.task, true, 0)
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
            if let task = removal.task { cancelTask(task) }
        }
        environment.events.emit(.requesterLeft(url: url, requesterCount: removal.remaining))
    }

    /// Ends every requester with a cancellation and abandons the transfer
    /// (``Downloader/cancelAllDownloads()``).
    func cancelAll() {
        let (requesters, phase, task) = state.withLock { state -> ([DownloadRequester], Phase, URLSessionTask?) in
            let requesters = Array(state.requesters.values)
            state.requesters = [:]
            state.isClosed = true
            let phase = state.phase
            switch phase {
            case .queued: state.phase = .finished
            case .starting: state.cancelWhenStarted = true
            case .running, .processing, .finished: break
            }
            return (requesters, phase, phase == .running ? state.task : nil)
        }
        environment.table.remove(self)
        if phase == .queued { environment.scheduler.dequeue(self) }
        if let task { cancelTask(task) }
        for requester in requesters {
            requester.resume(throwing: WebImageError.cancelled("Operation cancelled: every download of the downloader was cancelled", url: url))
        }
    }

    /// Sends the request. Returns `false` (and sends nothing) if every requester left while
    /// the transfer was queued. After `true`, the transfer holds a scheduler slot until the
    /// task completes.
    func start(in session: URLSession, delegate: SessionDelegate) -> Bool {
        let proceed = state.withLock { state -> Bool in
            guard state.phase == .queued, !state.isClosed, !state.requesters.isEmpty else { return false }
            state.phase = .starting
            return true
        }
        guard proceed else { return false }
        let task = session.dataTask(with: settings.request)
        switch settings.priority {
        case .high: task.priority = URLSessionTask.highPriority
        case .low: task.priority = URLSessionTask.lowPriority
        case .normal: break
        }
        delegate.register(task, for: self)
        let cancelNow = state.withLock { state -> Bool in
            state.task = task
            state.phase = .running
            state.lastActivity = .now
            return state.cancelWhenStarted
        }
        environment.events.emit(.started(url: url, request: settings.request))
        task.resume()
        if cancelNow { cancelTask(task) }
        startIdleWatchdog(task)
        return true
    }

    /// Fails the transfer once nothing has arrived for the timeout.
    ///
    /// URLSession's own request timeout on Linux fires up to a second late (a 1 s timeout was
    /// seen to end after 2.0 s), so the downloader keeps its own clock: a task that wakes when
    /// the timeout could have run out, and either fails the transfer with a `timedOut` error
    /// or sleeps for the rest of the new window. The failure is sent through the delegate
    /// queue, ordered with URLSession's callbacks (see ``cancelTask(_:)``). URLSession's timer
    /// stays as a backstop.
    private func startIdleWatchdog(_ task: URLSessionTask) {
        scheduleIdleCheck(task, after: .seconds(environment.timeoutSeconds))
    }

    /// One wake-up of the idle watchdog. It runs on a Dispatch timer rather than `Task.sleep`:
    /// the cooperative pool can be busy with synchronous decoding for seconds, Dispatch's
    /// global queues cannot be starved that way.
    private func scheduleIdleCheck(_ task: URLSessionTask, after wait: Duration) {
        let timeout = Duration.seconds(environment.timeoutSeconds)
        let (seconds, attoseconds) = wait.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(1, nanoseconds))) { [weak self] in
            guard let self else { return }
            let idle: Duration? = self.state.withLock { state in
                guard state.phase == .running, state.failure == nil, !state.taskCancelled, !state.awaitsAuthentication else { return nil }
                return ContinuousClock.now - state.lastActivity
            }
            guard let idle else { return }
            if idle >= timeout {
                let error = self.mapped(URLError(.timedOut))
                self.environment.delegateQueue.addOperation { self.fail(error, task: task) }
            } else {
                self.scheduleIdleCheck(task, after: timeout - idle)
            }
        }
    }

    /// The requesters' progress handlers (and, for partial images, only those that asked).
    func progressHandlers(partialImagesOnly: Bool = false) -> [ImageLoaderProgressHandler] {
        state.withLock { state in
            state.requesters.values.compactMap { requester in
                partialImagesOnly && !requester.wantsPartialImages ? nil : requester.progress
            }
        }
    }

    /// Records the first failure and cancels the task (directly: it is called from the task's
    /// own delegate callbacks); the failure is reported on completion.
    /// - Parameter cancel: `false` when the task ends by itself (a refused redirect).
    func fail(_ error: WebImageError, task: URLSessionTask, cancel: Bool = true) {
        let first = state.withLock { state -> Bool in
            guard state.failure == nil else { return false }
            state.failure = error
            if cancel { state.taskCancelled = true }
            return true
        }
        if first && cancel { task.cancel() }
    }

    /// Cancels `task` from outside its delegate callbacks (a requester left, cancelAll).
    ///
    /// swift-corelibs-foundation 6.3 stops with a `fatalError` ("Received callback for HTTP
    /// redirection, but we're not waiting for it") when a task is cancelled while its redirect
    /// callback is pending and the callback then calls its completion handler. So until the
    /// final response has arrived (no redirect can follow it), the cancel runs on the session's
    /// serial delegate queue, ordered with the delegate callbacks, and ``isTaskCancelled`` lets
    /// the redirect callback drop its completion handler after it. Once the final response is
    /// in, the cancel is immediate: queued behind the data callbacks it would let the whole
    /// body arrive first.
    func cancelTask(_ task: URLSessionTask) {
        let immediate = state.withLock { state -> Bool in
            guard state.response != nil, !state.awaitsAuthentication else { return false }
            state.taskCancelled = true
            return true
        }
        if immediate {
            task.cancel()
            return
        }
        environment.delegateQueue.addOperation { [self] in
            state.withLock { $0.taskCancelled = true }
            task.cancel()
        }
    }

    /// Whether ``cancelTask(_:)`` has run (read on the delegate queue).
    var isTaskCancelled: Bool {
        state.withLock { $0.taskCancelled }
    }
}
