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
    private typealias Table = SharedWorkTable<Key, CheckedContinuation<Value, any Error>, TaskPriority>

    /// Whether the work of a key is cancelled when its last subscriber leaves.
    package let cancelsAbandonedWork: Bool
    private let table: Locked<Table>

    /// A table of shared work.
    /// - Parameter cancelsAbandonedWork: Cancel the work when its last subscriber leaves
    ///   (default `true`).
    package init(cancelsAbandonedWork: Bool = true) {
        self.cancelsAbandonedWork = cancelsAbandonedWork
        table = Locked(Table(keepsAbandoned: !cancelsAbandonedWork))
    }

    /// How many keys have work running.
    package var runningCount: Int { table.withLock { $0.flightCount } }

    /// How many times a subscriber joined work that was running already.
    package var joinCount: Int { table.withLock { $0.joinCount } }

    /// The number of subscribers of the work of `key` (0 when none runs).
    package func subscriberCount(for key: Key) -> Int {
        table.withLock { $0.flight(key)?.subscribers.count ?? 0 }
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
        // Known before the subscriber joins, so that a cancellation that comes first finds
        // nothing to remove.
        let subscriberID = table.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let (cancelled, escalate) = table.withLock { table -> (Bool, Task<Void, Never>?) in
                    if Task.isCancelled { return (true, nil) }
                    var raised = false
                    let join = table.join(key, id: subscriberID, subscriber: continuation, extra: { priority }) { flightPriority in
                        if priority > flightPriority { flightPriority = priority; raised = true }
                    }
                    switch join {
                    case .joined(let flight):
                        return (false, raised ? flight.task : nil)
                    case .started(let generation):
                        let task = Task(priority: priority) { [weak self] in
                            let outcome: Result<Value, any Error>
                            do {
                                outcome = .success(try await work())
                            } catch {
                                outcome = .failure(error)
                            }
                            self?.finish(key, generation: generation, with: outcome)
                        }
                        _ = table.attach(task, to: key, generation: generation)
                        return (false, nil)
                    case .closed:
                        preconditionFailure("SharedWork never closes a flight before it ends")
                    }
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
                escalate?.escalatePriority(to: priority)
            }
        } onCancel: {
            leave(subscriberID)
        }
    }

    /// Ends the work `generation` of `key`: forgets it, then resumes its subscribers.
    private func finish(_ key: Key, generation: UInt64, with outcome: Result<Value, any Error>) {
        let subscribers = table.withLock { $0.end(key, generation: generation)?.orderedSubscribers ?? [] }
        for subscriber in subscribers { subscriber.resume(with: outcome) }
    }

    /// Subscriber `id` leaves (its task was cancelled); nothing when it has not joined yet or
    /// was resumed already.
    private func leave(_ id: UInt64) {
        guard let leave = table.withLock({ $0.leave(id: id) }) else { return }
        leave.subscriber.resume(throwing: CancellationError())
        if leave.abandoned { leave.flight.task?.cancel() }
    }
}
