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
    }

    private struct Load {
        let generation: UInt64
        var subscribers: [UInt64: Subscriber] = [:]
        var task: Task<Void, Never>?
        var delivered: Result<ImageLoadResult, any Error>?
        /// `nil` until a requester with a sink joins.
        var sinks: Sinks?
    }

    private struct State {
        var loads: [LoadWorkKey: Load] = [:]
        var owners: [UInt64: LoadWorkKey] = [:]
        var nextID: UInt64 = 0
        /// The outcomes of observed joiners that ended before ``activate(id:)``.
        var pendingEnds: [UInt64: Result<ImageLoadResult, any Error>] = [:]

        /// Notes that the subscribers `ids` of `load` end with `end`: returns the sinks to
        /// report it to now (active ones); a waiting joiner's end is kept for ``activate(id:)``.
        mutating func ending(_ ids: some Sequence<UInt64>, of load: inout Load, with end: Result<ImageLoadResult, any Error>) -> [(sink: ImageEventSink, url: URL)] {
            guard var sinks = load.sinks else { return [] }
            var now: [(sink: ImageEventSink, url: URL)] = []
            for id in ids {
                if let active = sinks.active[id] { now.append(active) }
                if sinks.waiting.removeValue(forKey: id) != nil { pendingEnds[id] = end }
            }
            load.sinks = sinks
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
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
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
            if var load = state.loads[key] {
                if let result = load.delivered { return .delivered(result) }
                load.subscribers[id] = subscriber
                if let sink { load.sinks = load.sinks ?? Sinks(); load.sinks?.waiting[id] = sink }
                state.loads[key] = load
                state.owners[id] = key
                return .joined
            }
            let generation = state.nextID
            state.nextID += 1
            var load = Load(generation: generation, subscribers: [id: subscriber])
            if let sink { load.sinks = Sinks(active: [id: (sink, subscriber.url)]) }
            state.loads[key] = load
            state.owners[id] = key
            return .started(generation: generation)
        }
    }

    /// Makes the sink of observed joiner `id`, which has reported `joined`, active: from now on
    /// it gets the work's events and the coordinator reports its end.
    /// - Returns: `nil` when activated; the outcome, for the caller to report, when the joiner
    ///   ended in between (it left, or the result came).
    func activate(id: UInt64) -> Result<ImageLoadResult, any Error>? {
        state.withLock { state in
            if let end = state.pendingEnds.removeValue(forKey: id) { return end }
            guard let key = state.owners[id], let sink = state.loads[key]?.sinks?.waiting.removeValue(forKey: id),
                  let url = state.loads[key]?.subscribers[id]?.url else { return nil }
            state.loads[key]?.sinks?.active[id] = (sink, url)
            return nil
        }
    }

    /// Hands the started load its task; cancels the task if every requester already left.
    func attach(_ task: Task<Void, Never>, to key: LoadWorkKey, generation: UInt64) {
        let orphaned = state.withLock { state -> Bool in
            guard var load = state.loads[key], load.generation == generation, load.delivered == nil else {
                return state.loads[key]?.generation != generation
            }
            load.task = task
            state.loads[key] = load
            return false
        }
        if orphaned { task.cancel() }
    }

    /// Removes subscriber `id` (its task was cancelled) and resumes it with a cancellation.
    func leave(id: UInt64) {
        let (subscriber, abandonedTask, sinks) = state.withLock { state -> (Subscriber?, Task<Void, Never>?, [(sink: ImageEventSink, url: URL)]) in
            guard let key = state.owners.removeValue(forKey: id), var load = state.loads[key],
                  let subscriber = load.subscribers.removeValue(forKey: id) else { return (nil, nil, []) }
            let sinks = load.sinks == nil ? [] : state.ending([id], of: &load, with: .failure(CancellationError()))
            load.sinks?.active[id] = nil
            if load.subscribers.isEmpty, load.delivered == nil {
                state.loads[key] = nil
                return (subscriber, load.task, sinks)
            }
            state.loads[key] = load
            return (subscriber, nil, sinks)
        }
        for (sink, _) in sinks { sink.emit(.cancelled) }
        subscriber?.resume(.failure(WebImageError.cancelled("Operation cancelled by user", url: subscriber?.url)))
        abandonedTask?.cancel()
    }

    /// Sends `event` to every current subscriber of the load.
    func emit(_ event: ImageLoadEvent, key: LoadWorkKey, generation: UInt64) {
        let handlers = state.withLock { state -> [ImageLoadEventHandler] in
            guard let load = state.loads[key], load.generation == generation else { return [] }
            return load.subscribers.values.compactMap(\.events)
        }
        for handler in handlers { handler(event) }
    }

    /// Sends `kind` to the active sinks of the load: its observed subscribers, and after the
    /// result the observed requesters it was delivered to.
    func broadcast(_ kind: ImageEvent.Kind, key: LoadWorkKey, generation: UInt64) {
        let sinks = state.withLock { state -> [ImageEventSink] in
            guard let load = state.loads[key], load.generation == generation, let sinks = load.sinks else { return [] }
            return sinks.active.values.map(\.sink)
        }
        for sink in sinks { sink.emit(kind) }
    }

    /// Resumes every subscriber with `result` (reporting the ends of observed ones first); the
    /// load stays until ``finish(key:generation:)``.
    func deliver(_ result: Result<ImageLoadResult, any Error>, key: LoadWorkKey, generation: UInt64) {
        let (subscribers, sinks) = state.withLock { state -> ([Subscriber], [(sink: ImageEventSink, url: URL)]) in
            guard var load = state.loads[key], load.generation == generation, load.delivered == nil else { return ([], []) }
            let subscribers = Array(load.subscribers.values)
            for id in load.subscribers.keys { state.owners[id] = nil }
            let sinks = load.sinks == nil ? [] : state.ending(load.subscribers.keys, of: &load, with: result)
            load.subscribers = [:]
            load.delivered = result
            state.loads[key] = load
            return (subscribers, sinks)
        }
        for (sink, url) in sinks { sink.emit(.end(of: result, url: url)) }
        for subscriber in subscribers { subscriber.resume(result) }
    }

    /// Removes the load once its work (stores included) is over. Subscribers still waiting
    /// (a pipeline that ended without a result) get a cancellation.
    func finish(key: LoadWorkKey, generation: UInt64) {
        let (leftovers, sinks) = state.withLock { state -> ([Subscriber], [(sink: ImageEventSink, url: URL)]) in
            guard var load = state.loads[key], load.generation == generation else { return ([], []) }
            state.loads[key] = nil
            for id in load.subscribers.keys { state.owners[id] = nil }
            let sinks = load.sinks == nil ? [] : state.ending(load.subscribers.keys, of: &load, with: .failure(CancellationError()))
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
            for (key, var load) in state.loads where load.delivered == nil {
                subscribers += load.subscribers.values
                if load.sinks != nil { sinks += state.ending(load.subscribers.keys, of: &load, with: .failure(CancellationError())) }
                if let task = load.task { tasks.append(task) }
                state.loads[key] = nil
            }
            state.owners.removeAll()
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
        state.withLock { $0.owners.count }
    }

    /// The number of sinks the work's events reach, over every load (for tests).
    var activeSinkCount: Int {
        state.withLock { $0.loads.values.reduce(0) { $0 + ($1.sinks?.active.count ?? 0) } }
    }

    /// The number of loads in the table (running, or storing after their result).
    var loadCount: Int {
        state.withLock { $0.loads.count }
    }
}
