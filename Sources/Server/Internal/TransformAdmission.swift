import WebImageCore

/// The bounded queue of transform work: at most `concurrency` jobs run (on an executor of that
/// width, off the Swift concurrency pool) and at most `maximumQueued` wait; a job beyond that
/// is refused at once, before it queues (`503` with `Retry-After`).
///
/// Thread-safety: every method may be called from any thread.
final class TransformAdmission: Sendable {
    /// Thrown when the queue is full.
    struct Full: Error {}

    /// The executor the jobs run on.
    let executor: BlockingWorkExecutor
    /// Running plus waiting jobs allowed.
    let capacity: Int
    private let admitted = Locked(0)

    init(concurrency: Int, maximumQueued: Int) {
        let width = max(1, concurrency)
        executor = BlockingWorkExecutor(name: "WebImageServer.transform", width: width)
        capacity = width + max(0, maximumQueued)
    }

    /// Takes a place in the queue, or throws ``Full``. Every successful call is paired with
    /// ``release()``.
    func admit() throws(Full) {
        let ok = admitted.withLock { count -> Bool in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard ok else { throw Full() }
    }

    /// Gives a place back.
    func release() {
        admitted.withLock { $0 -= 1 }
    }

    /// Runs `work` on the executor (the caller has been admitted).
    /// - Throws: `work`'s error, or `CancellationError` when the task is cancelled while waiting.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await executor.run(work)
    }

    /// Jobs waiting for a slot.
    var queueDepth: Int { executor.pendingCount }
    /// Jobs running.
    var inFlight: Int { executor.runningCount }
    /// Jobs admitted (running, waiting, or between the two).
    var admittedCount: Int { admitted.withLock { $0 } }
}
