/// Work shared by everyone who asks for the same key while it runs (Nuke's `TaskPool`): the
/// first subscriber starts it in a task of its own, later ones join it, and every subscriber
/// gets its value or its error.
///
/// - **Leaving:** a subscriber whose task is cancelled leaves at once with a
///   `CancellationError`; the others keep waiting. When the last one leaves, the work is
///   cancelled (unless ``cancelsAbandonedWork`` is `false`: then it runs to its end, for work
///   whose result is kept anyway, such as a cache store) and forgotten, so a later subscriber
///   starts it again.
/// - **Priority:** the work's task starts at its first subscriber's priority and is raised to
///   the highest priority of any subscriber that joins.
/// - **After the end:** the key is forgotten as the work ends, before its subscribers are
///   resumed: a subscriber that comes later starts the work again (results are for caches to
///   keep, not for this table).
///
/// Subscribers are resumed with no lock held, in the order they joined.
package final class SharedWork<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Flight {
        let generation: UInt64
        var task: Task<Void, Never>?
        var priority: TaskPriority
        var subscribers = WaiterTable<Value, any Error>()
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextGeneration: UInt64 = 0
        /// Subscriber ids, unique over every key (known before a subscriber joins, so that a
        /// cancellation that comes first finds nothing to remove).
        var nextSubscriber: UInt64 = 0
        var joins = 0
    }

    /// Whether the work of a key is cancelled when its last subscriber leaves.
    package let cancelsAbandonedWork: Bool
    private let state = Locked(State())

    /// A table of shared work.
    /// - Parameter cancelsAbandonedWork: Cancel the work when its last subscriber leaves
    ///   (default `true`).
    package init(cancelsAbandonedWork: Bool = true) {
        self.cancelsAbandonedWork = cancelsAbandonedWork
    }

    /// How many keys have work running.
    package var runningCount: Int { state.withLock { $0.flights.count } }

    /// How many times a subscriber joined work that was running already.
    package var joinCount: Int { state.withLock { $0.joins } }

    /// The number of subscribers of the work of `key` (0 when none runs).
    package func subscriberCount(for key: Key) -> Int {
        state.withLock { $0.flights[key]?.subscribers.count ?? 0 }
    }

    /// The value of the work of `key`: joins the running work, or starts `work` in a task of
    /// its own when none runs.
    /// - Parameters:
    ///   - key: What identifies the work.
    ///   - work: The work, run once for every subscriber that joins while it runs.
    /// - Throws: The work's error, or `CancellationError` when the calling task is cancelled
    ///   (it leaves; the work goes on for the others).
    package func value(for key: Key, work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let priority = Task.currentPriority
        let subscriberID = state.withLock { state in
            defer { state.nextSubscriber += 1 }
            return state.nextSubscriber
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let (cancelled, escalate) = state.withLock { state -> (Bool, Task<Void, Never>?) in
                    if Task.isCancelled { return (true, nil) }
                    if var flight = state.flights[key] {
                        flight.subscribers.insert(continuation, id: subscriberID)
                        state.joins += 1
                        let raise = priority > flight.priority ? flight.task : nil
                        if raise != nil { flight.priority = priority }
                        state.flights[key] = flight
                        return (false, raise)
                    }
                    let generation = state.nextGeneration
                    state.nextGeneration += 1
                    var flight = Flight(generation: generation, priority: priority)
                    flight.subscribers.insert(continuation, id: subscriberID)
                    flight.task = Task(priority: priority) { [weak self] in
                        let outcome: Result<Value, any Error>
                        do {
                            outcome = .success(try await work())
                        } catch {
                            outcome = .failure(error)
                        }
                        self?.finish(key, generation: generation, with: outcome)
                    }
                    state.flights[key] = flight
                    return (false, nil)
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
                escalate?.escalatePriority(to: priority)
            }
        } onCancel: {
            leave(key, subscriber: subscriberID)
        }
    }

    /// Ends the work `generation` of `key`: forgets it, then resumes its subscribers.
    private func finish(_ key: Key, generation: UInt64, with outcome: Result<Value, any Error>) {
        let subscribers = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard var flight = state.flights[key], flight.generation == generation else { return [] }
            state.flights[key] = nil
            return flight.subscribers.removeAll()
        }
        for subscriber in subscribers { subscriber.resume(with: outcome) }
    }

    /// The subscriber `id` of the work of `key` leaves (its task was cancelled); nothing when it
    /// has not joined yet or was resumed already.
    private func leave(_ key: Key, subscriber id: UInt64) {
        let (left, abandoned) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            guard var flight = state.flights[key], let continuation = flight.subscribers.remove(id: id) else { return (nil, nil) }
            if flight.subscribers.isEmpty, cancelsAbandonedWork {
                state.flights[key] = nil
                return (continuation, flight.task)
            }
            state.flights[key] = flight
            return (continuation, nil)
        }
        left?.resume(throwing: CancellationError())
        abandoned?.cancel()
    }
}
