import Foundation

/// Coalescing of the manager's loads: requests with the same ``LoadWorkKey`` share one run of
/// the pipeline. Each requester is a subscriber with a resume handler (a continuation of the
/// async API, the completion of the completion-handler API); the run broadcasts events to the
/// subscribers and resumes each one exactly once with the result.
///
/// - A requester that leaves (its task is cancelled) is resumed at once with a cancellation
///   error; the others are not affected.
/// - When the last requester leaves before the result, the load is removed from the table and
///   its task is cancelled, so the loader sees the cancellation and a new request starts fresh.
/// - After the result is delivered, the load stays in the table until its cache stores are
///   done; a request arriving in that window gets the result at once instead of loading again,
///   with the result's own cache type (`.none` for a fresh load: that is where the image came
///   from).
///
/// Observed requests (joined with an ``ImageEventSink``): the coordinator reports each one's
/// end (`finished`, `failed`, `cancelled`) just before resuming it, and fans the work's events
/// out to the sinks of the requests subscribed at that moment
/// (``broadcast(_:key:generation:)``); requests that got the result keep hearing them until
/// the stores are done. A joiner reports `joined` itself after joining, then calls
/// ``activate(id:)``: only then does its sink get the work's events and its end, so `joined`
/// comes first. An end that happens before (it left, or the result came) waits in the table
/// for `activate` to hand it over. An unobserved load keeps no event state at all.
///
/// Subscribers are resumed and event handlers called with no lock held.
final class LoadCoordinator: Sendable {
    struct Subscriber: Sendable {
        /// Called exactly once, with the result or the error.
        let resume: @Sendable (Result<ImageLoadResult, any Error>) -> Void
        let events: ImageLoadEventHandler?
        let url: URL

        init(resume: @escaping @Sendable (Result<ImageLoadResult, any Error>) -> Void, events: ImageLoadEventHandler?, url: URL) {
            self.resume = resume
            self.events = events
            self.url = url
        }

        /// A subscriber that resumes `continuation`.
        init(continuation: CheckedContinuation<ImageLoadResult, any Error>, events: ImageLoadEventHandler?, url: URL) {
            self.init(resume: { continuation.resume(with: $0) }, events: events, url: url)
        }
    }

    /// The event sinks of an observed load's requesters.
    private struct Sinks {
        /// Those the work's events go to: subscribers' that are active, and after the result
        /// those of the requesters it was delivered to (for the stores).
        var active: [UInt64: (sink: ImageEventSink, url: URL)] = [:]
        /// Joiners' sinks before ``activate(id:)``.
        var waiting: [UInt64: ImageEventSink] = [:]

        /// The subscribers `ids` end: returns the active sinks to report it to now (they stop
        /// being active unless `keepsActive`); the waiting joiners among them, whose end is kept
        /// for ``activate(id:)``, go into `pending`.
        mutating func ending(_ ids: some Sequence<UInt64>, keepsActive: Bool, pending: inout [UInt64]) -> [(sink: ImageEventSink, url: URL)] {
            var now: [(sink: ImageEventSink, url: URL)] = []
            for id in ids {
                if let active = keepsActive ? active[id] : active.removeValue(forKey: id) { now.append(active) }
                if waiting.removeValue(forKey: id) != nil { pending.append(id) }
            }
            return now
        }
    }

    /// The coordinator's own state of a load (the table keeps its subscribers and task).
    private struct LoadState: Sendable {
        /// The result, once delivered (the load is then closed and storing).
        var delivered: Result<ImageLoadResult, any Error>?
        /// `nil` until a requester with a sink joins.
        var sinks: Sinks?
    }

    private typealias Table = SharedWorkTable<LoadWorkKey, Subscriber, LoadState>
    private typealias Load = Table.Flight

    private struct State {
        var table = Table()
        /// The outcomes of observed joiners that ended before ``activate(id:)``.
        var pendingEnds: [UInt64: Result<ImageLoadResult, any Error>] = [:]

        /// Notes that the subscribers `ids` of the load of `key` end with `end`: returns the
        /// sinks to report it to now (active ones, which stop being active unless `keepsActive`);
        /// a waiting joiner's end is kept for ``activate(id:)``.
        mutating func ending(
            _ ids: some Sequence<UInt64>, of key: LoadWorkKey, generation: UInt64,
            with end: Result<ImageLoadResult, any Error>, keepsActive: Bool = false
        ) -> [(sink: ImageEventSink, url: URL)] {
            var pending: [UInt64] = []
            let now = table.updateExtra(key, generation: generation) { load in
                load.sinks?.ending(ids, keepsActive: keepsActive, pending: &pending) ?? []
            } ?? []
            for id in pending { pendingEnds[id] = end }
            return now
        }

        /// ``ending(_:of:generation:with:keepsActive:)`` for a load already out of the table.
        mutating func ending(_ ids: some Sequence<UInt64>, of load: Load, with end: Result<ImageLoadResult, any Error>) -> [(sink: ImageEventSink, url: URL)] {
            guard var sinks = load.extra.sinks else { return [] }
            var pending: [UInt64] = []
            let now = sinks.ending(ids, keepsActive: true, pending: &pending)
            for id in pending { pendingEnds[id] = end }
            return now
        }
    }

    enum JoinOutcome {
        /// The requester's task is already cancelled (checked when asked): nothing was registered.
        case cancelled
        /// The result is already there (the load is storing): resume with it.
        case delivered(Result<ImageLoadResult, any Error>)
        /// Joined a running load.
        case joined
        /// Started a new load: the caller must start its task and ``attach(_:to:generation:)`` it.
        case started(generation: UInt64)
    }

    private let state = Locked(State())

    /// A new identifier, for subscribers and unique work keys.
    func makeID() -> UInt64 {
        state.withLock { $0.table.makeID() }
    }

    /// Registers subscriber `id` for the work `key`, with its event sink when it is observed
    /// (active at once when it starts the load; for a joiner, after ``activate(id:)``).
    /// - Parameter checksTaskCancellation: Whether a cancelled calling task refuses the join
    ///   (the async API, whose cancellation is its task's); the completion-handler API cancels
    ///   through its operation instead.
    func join(_ key: LoadWorkKey, id: UInt64, subscriber: Subscriber, sink: ImageEventSink? = nil, checksTaskCancellation: Bool = true) -> JoinOutcome {
        state.withLock { state in
            // Checked under the lock that `leave` takes, so a cancellation is never missed.
            if checksTaskCancellation, Task.isCancelled { return .cancelled }
            let join = state.table.join(key, id: id, subscriber: subscriber, extra: {
                LoadState(sinks: sink.map { Sinks(active: [id: ($0, subscriber.url)]) })
            }, update: { load in
                guard let sink else { return }
                load.sinks = load.sinks ?? Sinks()
                load.sinks?.waiting[id] = sink
            })
            switch join {
            case .closed(let load):
                // Closed only once delivered.
                return .delivered(load.extra.delivered ?? .failure(CancellationError()))
            case .joined:
                return .joined
            case .started(let generation):
                return .started(generation: generation)
            }
        }
    }

    /// Makes the sink of observed joiner `id`, which has reported `joined`, active: from now on
    /// it gets the work's events and the coordinator reports its end.
    /// - Returns: `nil` when activated; the outcome, for the caller to report, when the joiner
    ///   ended in between (it left, or the result came).
    func activate(id: UInt64) -> Result<ImageLoadResult, any Error>? {
        state.withLock { state in
            if let end = state.pendingEnds.removeValue(forKey: id) { return end }
            guard let key = state.table.key(of: id), let url = state.table.flight(key)?.subscribers[id]?.url else { return nil }
            state.table.updateExtra(key) { load in
                guard let sink = load.sinks?.waiting.removeValue(forKey: id) else { return }
                load.sinks?.active[id] = (sink, url)
            }
            return nil
        }
    }

    /// Hands the started load its task; cancels the task if every requester already left.
    func attach(_ task: Task<Void, Never>, to key: LoadWorkKey, generation: UInt64) {
        let orphaned = state.withLock { state -> Bool in
            if state.table.attach(task, to: key, generation: generation) { return false }
            // Gone (every requester left) rather than closed (delivered already).
            return state.table.flight(key, generation: generation) == nil
        }
        if orphaned { task.cancel() }
    }

    /// Removes subscriber `id` (its task was cancelled) and resumes it with a cancellation.
    func leave(id: UInt64) {
        let (left, sinks) = state.withLock { state -> (Table.Leave?, [(sink: ImageEventSink, url: URL)]) in
            guard let left = state.table.leave(id: id) else { return (nil, []) }
            let sinks = left.abandoned
                ? state.ending([id], of: left.flight, with: .failure(CancellationError()))
                : state.ending([id], of: left.key, generation: left.flight.generation, with: .failure(CancellationError()))
            return (left, sinks)
        }
        guard let left else { return }
        for (sink, _) in sinks { sink.emit(.cancelled) }
        left.subscriber.resume(.failure(WebImageError.cancelled("Operation cancelled by user", url: left.subscriber.url)))
        if left.abandoned { left.flight.task?.cancel() }
    }

    /// Sends `event` to every current subscriber of the load.
    func emit(_ event: ImageLoadEvent, key: LoadWorkKey, generation: UInt64) {
        let handlers = state.withLock { state -> [ImageLoadEventHandler] in
            state.table.flight(key, generation: generation)?.subscribers.values.compactMap(\.events) ?? []
        }
        for handler in handlers { handler(event) }
    }

    /// Sends `kind` to the active sinks of the load: its observed subscribers, and after the
    /// result the observed requesters it was delivered to.
    func broadcast(_ kind: ImageEvent.Kind, key: LoadWorkKey, generation: UInt64) {
        let sinks = state.withLock { state -> [ImageEventSink] in
            state.table.flight(key, generation: generation)?.extra.sinks?.active.values.map(\.sink) ?? []
        }
        for sink in sinks { sink.emit(kind) }
    }

    /// Resumes every subscriber with `result` (reporting the ends of observed ones first); the
    /// load stays, closed, until ``finish(key:generation:)``.
    func deliver(_ result: Result<ImageLoadResult, any Error>, key: LoadWorkKey, generation: UInt64) {
        let (subscribers, sinks) = state.withLock { state -> ([Subscriber], [(sink: ImageEventSink, url: URL)]) in
            guard let load = state.table.close(key, generation: generation, update: { $0.delivered = result }) else { return ([], []) }
            // The delivered requesters' sinks stay active: they hear the stores.
            let sinks = state.ending(load.subscribers.ids, of: key, generation: generation, with: result, keepsActive: true)
            return (Array(load.subscribers.values), sinks)
        }
        for (sink, url) in sinks { sink.emit(.end(of: result, url: url)) }
        for subscriber in subscribers { subscriber.resume(result) }
    }

    /// Removes the load once its work (stores included) is over. Subscribers still waiting
    /// (a pipeline that ended without a result) get a cancellation.
    func finish(key: LoadWorkKey, generation: UInt64) {
        let (leftovers, sinks) = state.withLock { state -> ([Subscriber], [(sink: ImageEventSink, url: URL)]) in
            guard let load = state.table.end(key, generation: generation) else { return ([], []) }
            let sinks = state.ending(load.subscribers.ids, of: load, with: .failure(CancellationError()))
            return (Array(load.subscribers.values), sinks)
        }
        for (sink, _) in sinks { sink.emit(.cancelled) }
        for subscriber in leftovers {
            subscriber.resume(.failure(WebImageError.cancelled("Operation cancelled", url: subscriber.url)))
        }
    }

    /// Cancels every load: every waiting requester gets a cancellation error at once.
    func cancelAll() {
        let (subscribers, tasks, sinks) = state.withLock { state -> ([Subscriber], [Task<Void, Never>], [(sink: ImageEventSink, url: URL)]) in
            var subscribers: [Subscriber] = []
            var tasks: [Task<Void, Never>] = []
            var sinks: [(sink: ImageEventSink, url: URL)] = []
            for load in state.table.endAllOpen() {
                subscribers += load.subscribers.values
                sinks += state.ending(load.subscribers.ids, of: load, with: .failure(CancellationError()))
                if let task = load.task { tasks.append(task) }
            }
            return (subscribers, tasks, sinks)
        }
        for (sink, _) in sinks { sink.emit(.cancelled) }
        for subscriber in subscribers {
            subscriber.resume(.failure(WebImageError.cancelled("Operation cancelled by cancelAll()", url: subscriber.url)))
        }
        for task in tasks { task.cancel() }
    }

    /// The number of requesters waiting for a result (for tests).
    var subscriberCount: Int {
        state.withLock { $0.table.subscriberCount }
    }

    /// The number of sinks the work's events reach, over every load (for tests).
    var activeSinkCount: Int {
        state.withLock { $0.table.allFlights.reduce(0) { $0 + ($1.extra.sinks?.active.count ?? 0) } }
    }

    /// The number of loads in the table (running, or storing after their result).
    var loadCount: Int {
        state.withLock { $0.table.flightCount }
    }
}
