import Foundation

/// Coalescing of the manager's loads: requests with the same ``LoadWorkKey`` share one run of
/// the pipeline. Each requester is a subscriber with a continuation; the run broadcasts
/// events to the subscribers and resumes each continuation exactly once with the result.
///
/// - A requester that leaves (its task is cancelled) is resumed at once with a cancellation
///   error; the others are not affected.
/// - When the last requester leaves before the result, the load is removed from the table and
///   its task is cancelled, so the loader sees the cancellation and a new request starts fresh.
/// - After the result is delivered, the load stays in the table until its cache stores are
///   done; a request arriving in that window gets the result at once instead of loading again
///   (reported with cache type `.memory`: it did not wait for a load).
///
/// Continuations are resumed and event handlers called with no lock held.
final class LoadCoordinator: Sendable {
    struct Subscriber: Sendable {
        let continuation: CheckedContinuation<ImageLoadResult, any Error>
        let events: ImageLoadEventHandler?
        let url: URL
    }

    private struct Load {
        let generation: UInt64
        var subscribers: [UInt64: Subscriber] = [:]
        var task: Task<Void, Never>?
        var delivered: Result<ImageLoadResult, any Error>?
    }

    private struct State {
        var loads: [LoadWorkKey: Load] = [:]
        var owners: [UInt64: LoadWorkKey] = [:]
        var nextID: UInt64 = 0
    }

    enum JoinOutcome {
        /// The requester's task is already cancelled: nothing was registered.
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

    /// Registers subscriber `id` for the work `key`.
    func join(_ key: LoadWorkKey, id: UInt64, subscriber: Subscriber) -> JoinOutcome {
        state.withLock { state in
            // Checked under the lock that `leave` takes, so a cancellation is never missed.
            if Task.isCancelled { return .cancelled }
            if var load = state.loads[key] {
                if let result = load.delivered { return .delivered(result) }
                load.subscribers[id] = subscriber
                state.loads[key] = load
                state.owners[id] = key
                return .joined
            }
            let generation = state.nextID
            state.nextID += 1
            state.loads[key] = Load(generation: generation, subscribers: [id: subscriber])
            state.owners[id] = key
            return .started(generation: generation)
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
        let (subscriber, abandonedTask) = state.withLock { state -> (Subscriber?, Task<Void, Never>?) in
            guard let key = state.owners.removeValue(forKey: id), var load = state.loads[key],
                  let subscriber = load.subscribers.removeValue(forKey: id) else { return (nil, nil) }
            if load.subscribers.isEmpty, load.delivered == nil {
                state.loads[key] = nil
                return (subscriber, load.task)
            }
            state.loads[key] = load
            return (subscriber, nil)
        }
        subscriber?.continuation.resume(throwing: WebImageError.cancelled("Operation cancelled by user", url: subscriber?.url))
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

    /// Resumes every subscriber with `result`; the load stays until ``finish(key:generation:)``.
    func deliver(_ result: Result<ImageLoadResult, any Error>, key: LoadWorkKey, generation: UInt64) {
        let subscribers = state.withLock { state -> [Subscriber] in
            guard var load = state.loads[key], load.generation == generation, load.delivered == nil else { return [] }
            let subscribers = Array(load.subscribers.values)
            for id in load.subscribers.keys { state.owners[id] = nil }
            load.subscribers = [:]
            load.delivered = result
            state.loads[key] = load
            return subscribers
        }
        for subscriber in subscribers { subscriber.continuation.resume(with: result) }
    }

    /// Removes the load once its work (stores included) is over. Subscribers still waiting
    /// (a pipeline that ended without a result) get a cancellation.
    func finish(key: LoadWorkKey, generation: UInt64) {
        let leftovers = state.withLock { state -> [Subscriber] in
            guard let load = state.loads[key], load.generation == generation else { return [] }
            state.loads[key] = nil
            for id in load.subscribers.keys { state.owners[id] = nil }
            return Array(load.subscribers.values)
        }
        for subscriber in leftovers {
            subscriber.continuation.resume(throwing: WebImageError.cancelled("Operation cancelled", url: subscriber.url))
        }
    }

    /// Cancels every load: every waiting requester gets a cancellation error at once.
    func cancelAll() {
        let (subscribers, tasks) = state.withLock { state -> ([Subscriber], [Task<Void, Never>]) in
            var subscribers: [Subscriber] = []
            var tasks: [Task<Void, Never>] = []
            for (key, load) in state.loads where load.delivered == nil {
                subscribers += load.subscribers.values
                if let task = load.task { tasks.append(task) }
                state.loads[key] = nil
            }
            state.owners.removeAll()
            return (subscribers, tasks)
        }
        for subscriber in subscribers {
            subscriber.continuation.resume(throwing: WebImageError.cancelled("Operation cancelled by cancelAll()", url: subscriber.url))
        }
        for task in tasks { task.cancel() }
    }

    /// The number of requesters waiting for a result (for tests).
    var subscriberCount: Int {
        state.withLock { $0.owners.count }
    }

    /// The number of loads in the table (running, or storing after their result).
    var loadCount: Int {
        state.withLock { $0.loads.count }
    }
}
