import WebImageCore

/// The life of one transfer and of its requesters, as a value (issue 32): the phase, the
/// requesters (a ``WorkSubscribers``, the shared-work rules: closed runs take no one), and the
/// deferred cancellation of a transfer abandoned while it starts. Each mutating method is one
/// event of the transfer and returns what the transfer must do about it (resume requesters,
/// dequeue, cancel the exchange); ``DownloadTransfer`` keeps it in its locked state next to
/// the transport's data and performs the actions after the lock. Tested without curl.
///
/// Phases: queued -> starting -> running (one exchange per hop) -> processing (decrypt,
/// validate, decode per group of requesters) -> finished. Requesters may join until the
/// transfer is closed: abandoned (its last requester left before processing), failed, or done.
struct TransferLifecycle: Sendable {
    enum Phase: Sendable {
        case queued, starting, running, processing, finished
    }

    /// How an abandoned transfer stops.
    enum Stop: Sendable, Equatable {
        /// Queued: take it out of the scheduler's queue.
        case dequeue
        /// Starting: nothing now; ``started()`` says to cancel the exchange once it exists.
        case cancelOnceStarted
        /// Running: cancel the current exchange.
        case cancelExchange
    }

    /// What ``leave(id:)`` did.
    struct Leave: Sendable {
        /// The requester, taken out: the transfer resumes it with a cancellation.
        let requester: DownloadRequester
        /// The phase it left in.
        let phase: Phase
        /// The requesters left.
        let remaining: Int
        /// How the transfer stops, when it was the last requester before processing.
        let stop: Stop?
    }

    private(set) var phase = Phase.queued
    private(set) var requesters = WorkSubscribers<DownloadRequester>()
    private var cancelWhenStarted = false
    /// Whether a requester with a progress handler, or one that wants partial images, ever
    /// joined: each body chunk looks at the requesters only then.
    private(set) var anyProgressHandler = false
    private(set) var anyPartialImages = false

    /// Closed, with no requester left: nobody waits for the body any more.
    var isAbandoned: Bool { requesters.isAbandoned }

    /// A requester joins, unless the transfer is closed.
    /// - Returns: The number of requesters now, or `nil` when closed.
    mutating func join(_ requester: DownloadRequester) -> Int? {
        guard let count = requesters.insert(requester, id: requester.id) else { return nil }
        anyProgressHandler = anyProgressHandler || requester.progress != nil
        anyPartialImages = anyPartialImages || requester.wantsPartialImages
        return count
    }

    /// Requester `id` leaves (its task was cancelled); the last one before processing abandons
    /// the transfer.
    /// - Returns: `nil` when it was served already.
    mutating func leave(id: UInt64) -> Leave? {
        guard let requester = requesters.remove(id: id) else { return nil }
        let remaining = requesters.count
        // Once processing, the body is in hand: a requester may still join and be served.
        guard remaining == 0, phase != .processing, phase != .finished else {
            return Leave(requester: requester, phase: phase, remaining: remaining, stop: nil)
        }
        let left = phase
        _ = requesters.close()
        return Leave(requester: requester, phase: left, remaining: 0, stop: stop())
    }

    /// Every requester is cancelled (``Downloader/cancelAllDownloads()``).
    /// - Returns: The requesters to resume with a cancellation, and how the transfer stops.
    mutating func cancelAll() -> (requesters: [DownloadRequester], stop: Stop?) {
        let cancelled = requesters.close()
        return (cancelled, stop())
    }

    /// How the transfer, closed with no requester, stops in its phase.
    private mutating func stop() -> Stop? {
        switch phase {
        case .queued:
            phase = .finished
            return .dequeue
        case .starting:
            cancelWhenStarted = true
            return .cancelOnceStarted
        case .running:
            return .cancelExchange
        case .processing, .finished:
            return nil
        }
    }

    /// The scheduler gave the transfer a slot.
    /// - Returns: Whether to send the request: `false` when every requester left while it was
    ///   queued.
    mutating func beginStarting() -> Bool {
        guard phase == .queued, !requesters.isClosed, !requesters.isEmpty else { return false }
        phase = .starting
        return true
    }

    /// The first exchange exists.
    /// - Returns: Whether to cancel it at once (abandoned while starting).
    mutating func started() -> Bool {
        phase = .running
        return cancelWhenStarted
    }

    /// The last exchange ended.
    /// - Returns: Whether the transfer was abandoned (it is finished; nobody is resumed);
    ///   otherwise it is processing.
    mutating func exchangesEnded() -> Bool {
        if requesters.isAbandoned {
            phase = .finished
            return true
        }
        phase = .processing
        return false
    }

    /// The oldest requester still waiting, to be served next; `nil` when none is left, and the
    /// transfer is then finished and closed.
    mutating func nextToServe() -> DownloadRequester? {
        if let oldest = requesters.values.min(by: { $0.id < $1.id }) { return oldest }
        _ = finish()
        return nil
    }

    /// Takes out the requesters `served`'s result serves: it, and every requester that shares
    /// its decode.
    mutating func takeServed(by served: DownloadRequester) -> [DownloadRequester] {
        guard let sharingKey = served.sharingKey else {
            return requesters.remove(id: served.id).map { [$0] } ?? []
        }
        return requesters.removeAll { $0.sharingKey == sharingKey }
    }

    /// Ends the transfer: closes it and takes every requester out (to be resumed with a
    /// failure, or one result).
    mutating func finish() -> [DownloadRequester] {
        phase = .finished
        return requesters.close()
    }

    /// ``finish()`` when every requester is resumed by a continuation and decodes nothing
    /// (the transfer then ends on the event loop); `nil`, and nothing changes, otherwise.
    mutating func finishIfNoneDecodes() -> [DownloadRequester]? {
        guard requesters.values.allSatisfy({ $0.deliversByResuming && !$0.decode.decodesImage }) else { return nil }
        return finish()
    }

    /// The requesters' progress handlers (and, for partial images, only those that asked).
    func progressHandlers(partialImagesOnly: Bool = false) -> [ImageLoaderProgressHandler] {
        guard partialImagesOnly ? anyPartialImages : anyProgressHandler else { return [] }
        return requesters.values.compactMap { requester in
            partialImagesOnly && !requester.wantsPartialImages ? nil : requester.progress
        }
    }

    /// Whether a requester waiting now wants partial images.
    var wantsPartialImages: Bool {
        anyPartialImages && requesters.values.contains(where: \.wantsPartialImages)
    }

    /// The oldest requester that wants partial images (its coder makes the progressive decoder).
    var firstPartialImageRequester: DownloadRequester? {
        requesters.values.filter(\.wantsPartialImages).min { $0.id < $1.id }
    }
}
