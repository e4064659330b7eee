/// The continuations of tasks waiting for a condition of some locked state, by id, in the order
/// they arrived: the one table behind every "suspend until ..." of the framework (the HTTP
/// server's drain, the Redis pool's free connections, the test gates).
///
/// It lives inside the state a ``Locked`` guards, so that checking the condition and joining
/// the table happen under one lock (no wake-up is lost between them); ``Locked/wait(in:ifCancelled:until:whenWaiting:)``
/// and ``Locked/waitThrowing(in:until:whenWaiting:)`` do the suspension and the cancellation.
/// Whoever changes the state takes the continuations out under the lock and resumes them
/// after it (never under it).
public struct WaiterTable<Value: Sendable, Failure: Error>: Sendable {
    /// A waiter's continuation.
    public typealias Continuation = CheckedContinuation<Value, Failure>

    private var entries: [(id: UInt64, continuation: Continuation)] = []
    private var nextID: UInt64 = 0

    /// An empty table.
    public init() {}

    /// Whether no task waits.
    public var isEmpty: Bool { entries.isEmpty }
    /// How many tasks wait.
    public var count: Int { entries.count }
    /// The waiters' ids, in the order they arrived.
    public var ids: [UInt64] { entries.map(\.id) }

    /// A new id for a waiter (ids are never reused).
    public mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Adds the waiter `id` (last in order).
    /// - Parameters:
    ///   - continuation: What resumes it.
    ///   - id: An id from ``makeID()``.
    public mutating func insert(_ continuation: Continuation, id: UInt64) {
        entries.append((id, continuation))
    }

    /// Takes the waiter `id` out, or `nil` when it is not waiting (resumed already).
    /// - Parameter id: The waiter's id.
    public mutating func remove(id: UInt64) -> Continuation? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        return entries.remove(at: index).continuation
    }

    /// Takes the waiter that arrived first out, or `nil`.
    public mutating func removeFirst() -> Continuation? {
        entries.isEmpty ? nil : entries.removeFirst().continuation
    }

    /// Takes every waiter whose id `shouldRemove` picks out, in arrival order.
    /// - Parameter shouldRemove: Picks by id (the caller keeps what it needs to know of each).
    public mutating func removeAll(where shouldRemove: (UInt64) -> Bool = { _ in true }) -> [Continuation] {
        var removed: [Continuation] = []
        entries.removeAll { entry in
            guard shouldRemove(entry.id) else { return false }
            removed.append(entry.continuation)
            return true
        }
        return removed
    }
}

extension Locked {
    /// Suspends the calling task until its condition holds: `ready` runs under the lock and
    /// returns the result at once, or `nil` to wait in `table` until whoever changes the state
    /// resumes the waiter. A cancelled task gets `cancelled` at once (and a waiting one when it
    /// is cancelled).
    /// - Parameters:
    ///   - table: The table in the locked state.
    ///   - cancelled: The result of a cancelled wait.
    ///   - ready: The condition, under the lock: the result, or `nil` to wait. Its second argument
    ///     is the waiter's id (for state the caller keeps per waiter).
    ///   - whenWaiting: Runs after the task joined the table, outside the lock, with its id (a
    ///     deadline timer, say).
    public func wait<Result: Sendable>(
        in table: any WritableKeyPath<Value, WaiterTable<Result, Never>> & Sendable,
        ifCancelled cancelled: Result,
        until ready: (inout Value, UInt64) -> Result?,
        whenWaiting: (UInt64) -> Void = { _ in }
    ) async -> Result {
        let id = withLock { $0[keyPath: table].makeID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
                let now = withLock { state -> Result? in
                    if let result = ready(&state, id) { return result }
                    if Task.isCancelled { return cancelled }
                    state[keyPath: table].insert(continuation, id: id)
                    return nil
                }
                if let now { continuation.resume(returning: now) } else { whenWaiting(id) }
            }
        } onCancel: {
            withLock { $0[keyPath: table].remove(id: id) }?.resume(returning: cancelled)
        }
    }

    /// ``wait(in:ifCancelled:until:whenWaiting:)`` for waits that can fail: `ready` may throw (the
    /// wait fails at once), a waiter may be resumed with an error, and a cancelled task gets a
    /// `CancellationError`.
    /// - Parameters:
    ///   - table: The table in the locked state.
    ///   - ready: The condition, under the lock: the result, an error, or `nil` to wait.
    ///   - whenWaiting: Runs after the task joined the table, outside the lock, with its id.
    public func waitThrowing<Result: Sendable>(
        in table: any WritableKeyPath<Value, WaiterTable<Result, any Error>> & Sendable,
        until ready: (inout Value, UInt64) throws -> Result?,
        whenWaiting: (UInt64) -> Void = { _ in }
    ) async throws -> Result {
        let id = withLock { $0[keyPath: table].makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                let now = withLock { state -> Swift.Result<Result, any Error>? in
                    do {
                        if let result = try ready(&state, id) { return .success(result) }
                    } catch {
                        return .failure(error)
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state[keyPath: table].insert(continuation, id: id)
                    return nil
                }
                if let now { continuation.resume(with: now) } else { whenWaiting(id) }
            }
        } onCancel: {
            withLock { $0[keyPath: table].remove(id: id) }?.resume(throwing: CancellationError())
        }
    }
}
