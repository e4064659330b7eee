import Dispatch
import Foundation

/// Runs blocking work (decoding, transforming, file I/O) off the Swift concurrency pool, at
/// most ``width`` jobs at a time, in submission order.
///
/// The cooperative thread pool has as many threads as cores; a synchronous decode of a large
/// image on it stalls every other task (a memory cache hit included) for as long as it runs.
/// Work handed to an executor runs on Dispatch's global threads instead, and never more than
/// ``width`` at once: 200 concurrent decodes queue up, they do not make 200 threads.
///
/// ```swift
/// let image = try await BlockingWorkExecutor.processing.run { try coder.decode(data, options: options) }
/// ```
///
/// - **Shared executors:** ``processing`` (decode, transform, encode; width = the number of
///   active cores) and ``fileIO`` (blocking disk reads and writes; width 8). Components may make
///   their own.
/// - **Cancellation:** a job whose task is cancelled while it waits is dropped and throws
///   `CancellationError`; a job that has started runs to its end (blocking code cannot be
///   interrupted), and its result is delivered.
/// - **Width** can be changed at any time; a lower width takes effect as running jobs finish.
///
/// Thread-safety: every member may be called from any thread.
public final class BlockingWorkExecutor: Sendable {
    /// The executor for CPU-heavy work: decoding, transforming, encoding. Its width defaults to
    /// the number of active processor cores.
    public static let processing = BlockingWorkExecutor(name: "SwiftWebImage.processing", width: ProcessInfo.processInfo.activeProcessorCount)
    /// The executor for blocking file I/O (the disk caches). Width 8: enough to keep a disk
    /// busy, few enough not to flood the system with threads.
    public static let fileIO = BlockingWorkExecutor(name: "SwiftWebImage.fileIO", width: 8)

    private struct Job {
        let id: UInt64
        /// Runs the work and resumes the caller with its result.
        let run: @Sendable () -> Void
        /// Resumes the caller with a cancellation, without running the work.
        let cancel: @Sendable () -> Void
    }

    private struct State {
        var width: Int
        var running = 0
        var peakRunning = 0
        var nextID: UInt64 = 0
        /// Jobs from `head` on wait; slots before `head` are `nil`, so that a job taken (and
        /// what its work captured, such as a decoded image) is not kept alive by the queue.
        var queue: [Job?] = []
        var head = 0

        var pendingCount: Int { queue.count - head }

        mutating func dequeue() -> Job? {
            guard head < queue.count else { return nil }
            let job = queue[head]
            queue[head] = nil
            head += 1
            if head > 64, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return job
        }

        mutating func remove(id: UInt64) -> Job? {
            guard let index = queue[head...].firstIndex(where: { $0?.id == id }) else { return nil }
            return queue.remove(at: index)
        }

        /// Reserves worker slots for queued jobs, up to the width, and returns how many workers to
        /// start (`running` counts them from now).
        mutating func reserveWorkers() -> Int {
            let count = max(0, min(width - running, pendingCount))
            running += count
            peakRunning = max(peakRunning, running)
            return count
        }
    }

    /// A name for diagnostics.
    public let name: String
    private let state: Locked<State>

    /// An executor that runs at most `width` jobs at once.
    /// - Parameters:
    ///   - name: A name for diagnostics.
    ///   - width: The most jobs running at once; values below 1 count as 1.
    public init(name: String, width: Int) {
        self.name = name
        self.state = Locked(State(width: max(1, width)))
    }

    /// The most jobs that run at once. Setting it takes effect for the next job started; values
    /// below 1 count as 1.
    public var width: Int {
        get { state.withLock { $0.width } }
        set {
            let starts = state.withLock { state -> Int in
                state.width = max(1, newValue)
                return state.reserveWorkers()
            }
            for _ in 0..<starts { startWorker() }
        }
    }

    /// The number of jobs running now.
    public var runningCount: Int { state.withLock { $0.running } }
    /// The number of jobs waiting for a slot.
    public var pendingCount: Int { state.withLock { $0.pendingCount } }
    /// The most jobs that ever ran at once on this executor (for tests and diagnostics).
    public var peakRunningCount: Int { state.withLock { $0.peakRunning } }

    /// Runs `work` when a slot is free and returns its result.
    /// - Throws: `CancellationError` when the calling task is cancelled before `work` starts.
    public func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async throws -> Value {
        try await run { () throws -> Value in work() }
    }

    /// Runs throwing `work` when a slot is free and returns its result or rethrows its error.
    /// - Throws: `work`'s error, or `CancellationError` when the calling task is cancelled
    ///   before `work` starts.
    public func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let job = Job(id: id, run: { continuation.resume(with: Result(catching: work)) }, cancel: { continuation.resume(throwing: CancellationError()) })
                let (start, cancelled) = state.withLock { state -> (Int, Bool) in
                    // The cancellation handler may have run before the job was queued.
                    if Task.isCancelled { return (0, true) }
                    state.queue.append(job)
                    return (state.reserveWorkers(), false)
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                for _ in 0..<start { startWorker() }
            }
        } onCancel: {
            // A job still waiting is dropped; one that has started finishes.
            state.withLock { $0.remove(id: id) }?.cancel()
        }
    }

    /// Runs `work` when a slot is free, even if the calling task is cancelled meanwhile: for
    /// writes and clean-ups that must happen once asked for (a cache store, a removal).
    public func runUncancellable<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            enqueue(Job(id: 0, run: { continuation.resume(returning: work()) }, cancel: {}))
        }
    }

    /// Runs throwing `work` when a slot is free, even if the calling task is cancelled
    /// meanwhile, and returns its result or rethrows its error.
    public func runUncancellable<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            enqueue(Job(id: 0, run: { continuation.resume(with: Result(catching: work)) }, cancel: {}))
        }
    }

    private func enqueue(_ job: Job) {
        let start = state.withLock { state -> Int in
            state.queue.append(job)
            return state.reserveWorkers()
        }
        for _ in 0..<start { startWorker() }
    }

    /// Starts one worker thread that runs queued jobs until none is left.
    private func startWorker() {
        DispatchQueue.global().async { [self] in
            while let job = state.withLock({ state -> Job? in
                guard let job = state.dequeue() else {
                    state.running -= 1
                    return nil
                }
                return job
            }) {
                job.run()
                // A lower width: this worker stops when more are running than allowed.
                let stop = state.withLock { state -> Bool in
                    guard state.running > state.width else { return false }
                    state.running -= 1
                    return true
                }
                if stop { return }
            }
        }
    }
}
