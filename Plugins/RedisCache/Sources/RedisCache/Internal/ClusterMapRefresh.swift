import WebImageCore

/// The state of the slot map refresh of a ``ClusterRouting``: at most one runs at a time, and
/// whoever asks while it runs waits for it. A value kept under the routing's lock; its
/// mutating methods say what to do next, so it is tested without sockets.
///
/// A caller's ``request()`` returns a generation; the refresh that answers it is the first that
/// completes after that call (the one running then, or one it starts), so a caller never gets
/// the outcome of a refresh that had completed before it asked.
struct ClusterMapRefresh: Sendable {
    /// Whether a refresh runs now.
    private(set) var isRunning = false
    /// Refreshes completed, successful or not.
    private(set) var completed = 0
    /// The outcome of the last one.
    private var last: Result<ClusterSlotMap, RedisClientError>?
    /// The round trips waiting for the one under way.
    var waiters = WaiterTable<ClusterSlotMap, any Error>()

    /// A refresh is needed: starts one unless one runs.
    /// - Returns: The generation to wait for with ``outcome(after:)``, and whether the caller
    ///   must start the refresh (then ``finish(_:)`` it).
    mutating func request() -> (generation: Int, start: Bool) {
        defer { isRunning = true }
        return (completed, !isRunning)
    }

    /// The outcome for a caller that asked at `generation`, or `nil` while it must wait.
    func outcome(after generation: Int) -> Result<ClusterSlotMap, RedisClientError>? {
        completed > generation ? last : nil
    }

    /// Records the refresh's outcome.
    /// - Returns: The waiters to resume with it (outside the lock).
    mutating func finish(_ result: Result<ClusterSlotMap, RedisClientError>) -> [CheckedContinuation<ClusterSlotMap, any Error>] {
        isRunning = false
        completed += 1
        last = result
        return waiters.removeAll()
    }
}
