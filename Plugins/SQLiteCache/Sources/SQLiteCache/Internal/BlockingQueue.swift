import Dispatch

/// Where ``SQLiteImageCache/removeExpiredData()`` runs its sweep: a concurrent dispatch queue,
/// so that the async call never blocks the caller's thread or the Swift concurrency pool.
/// (Queries and stores run on the inner `WebImageCache`'s own I/O queue.)
final class BlockingQueue: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    /// Runs `work` on the queue and returns its result.
    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Runs throwing `work` on the queue and returns its result or rethrows its error.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result(catching: work)) }
        }
    }
}
