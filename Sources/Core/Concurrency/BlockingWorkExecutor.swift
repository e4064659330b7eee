import Dispatch
import Foundation

/// Runs blocking work (decoding, transforming, file I/O) off the Swift concurrency pool, at
/// most ``width`` jobs at a time, in submission order.
///
/// The cooperative thread pool has as many threads as cores; a synchronous decode of a large
/// image on it stalls every other task (a memory cache hit included) for as long as it runs.
/// Work handed to an executor runs on threads of Dispatch's overcommitting pool instead (never
/// the concurrency pool's: on Linux both would otherwise share one root queue of one thread per
/// core), and never more than ``width`` at once: 200 concurrent decodes queue up, they do not
/// make 200 threads.
///
/// ```swift
/// let image = try await BlockingWorkExecutor.processing.run { try coder.decode(data, options: options) }
/// ```
///
/// - **Shared executors:** ``processing`` (decode, transform, encode; width = the number of
///   active cores) and ``fileIO`` (blocking disk reads and writes; width 8). Components may make
///   their own.
/// - **Cancellation:** a job whose task is cancelled while it waits is dropped and throws
///   `CancellationError`. A job that has started cannot be interrupted from outside, but its
///   own code can stop: ``isCurrentJobCancelled`` turns `true` on its thread when its task is
///   cancelled (the transformers and the resampler look every few rows and throw
///   `CancellationError`). Its result, or that error, is delivered when it ends.
/// - **Width** can be changed at any time; a lower width takes effect as running jobs finish.
/// - **Chained steps** (``run(steps:)``): work that moves from one executor to another (a
///   file read on ``fileIO``, then its decode on ``processing``) goes from thread to thread
///   without resuming the calling task in between. The thread that ran a step runs the next one
///   itself when its own executor has nothing else queued and the next executor has a free
///   slot: a disk hit then costs one hand-over out of the concurrency pool and one back.
///
/// Thread-safety: every member may be called from any thread.
public final class BlockingWorkExecutor: Sendable {
    /// The executor for CPU-heavy work: decoding, transforming, encoding. Its width defaults to
    /// the number of active processor cores.
    public static let processing = BlockingWorkExecutor(name: "SwiftWebImage.processing", width: ProcessInfo.processInfo.activeProcessorCount)
    /// The executor for blocking file I/O (the disk caches). Width 8: enough to keep a disk
    /// busy, few enough not to flood the system with threads.
    public static let fileIO = BlockingWorkExecutor(name: "SwiftWebImage.fileIO", width: 8)

    /// Whether the job the calling thread runs was cancelled: its waiting task was cancelled
    /// after the job started. `false` off an executor's threads and for uncancellable work.
    /// Long-running work looks every few rows and stops (``checkCurrentJobCancellation()``).
    public static var isCurrentJobCancelled: Bool {
        JobCancellation.current?.isCancelled ?? false
    }

    /// Throws `CancellationError` when ``isCurrentJobCancelled``.
    public static func checkCurrentJobCancellation() throws {
        if isCurrentJobCancelled { throw CancellationError() }
    }

    /// Whether row loops stop before `row`: every ``cancellationRowInterval`` rows they look at
    /// ``isCurrentJobCancelled`` (one thread-local read and one atomic load).
    package static func isCurrentJobCancelled(beforeRow row: Int) -> Bool {
        row % cancellationRowInterval == 0 && isCurrentJobCancelled
    }

    /// How many rows row loops run between two looks at their job's cancellation.
    package static let cancellationRowInterval = 16

    private struct Job {
        let id: UInt64
        /// Runs the work and resumes the caller with its result, or queues the work's next step
        /// on another executor. Returns that executor when it reserved a worker slot for the
        /// next step: the current thread may take the slot (see `drain()`).
        let run: @Sendable () -> BlockingWorkExecutor?
        /// Resumes the caller with a cancellation, without running the work.
        let cancel: @Sendable () -> Void
        /// Set when the waiting task is cancelled (`nil`: uncancellable work).
        var cancellation: JobCancellation? = nil
    }

    private struct State {
        var width: Int
        var running = 0
        var peakRunning = 0
        var startedWorkers = 0
        var nextID: UInt64 = 0
        /// The jobs waiting for a worker: a job taken (and what its work captured, such as a
        /// decoded image) is not kept alive by the queue.
        var queue = FIFOQueue<Job>()

        var pendingCount: Int { queue.count }

        mutating func dequeue() -> Job? {
            queue.popFirst()
        }

        mutating func remove(id: UInt64) -> Job? {
            queue.remove { $0.id == id }
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

    /// What a cancellation of a chain of steps (``run(steps:)``) needs: whether its task was
    /// cancelled, and where its next step waits.
    private struct Chain {
        var cancelled = false
        var queued: (executor: BlockingWorkExecutor, id: UInt64)?
        /// Told when the chain's task is cancelled, for the step running then.
        let cancellation = JobCancellation()
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
    package var peakRunningCount: Int { state.withLock { $0.peakRunning } }
    /// The number of worker threads this executor has asked Dispatch for (for tests and
    /// diagnostics: each is a thread wake-up). A step handed over by a thread that then runs
    /// it (``run(steps:)``) starts none.
    package var startedWorkerCount: Int { state.withLock { $0.startedWorkers } }

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
        let cancellation = JobCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let job = Job(
                    id: id, run: { continuation.resume(with: Result(catching: work)); return nil },
                    cancel: { continuation.resume(throwing: CancellationError()) }, cancellation: cancellation
                )
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
            // A job still waiting is dropped; one that has started is told (it may stop).
            cancellation.cancel()
            state.withLock { $0.remove(id: id) }?.cancel()
        }
    }

    /// Runs `work` when a slot is free, even if the calling task is cancelled meanwhile: for
    /// writes and clean-ups that must happen once asked for (a cache store, a removal).
    public func runUncancellable<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            enqueue(Job(id: 0, run: { continuation.resume(returning: work()); return nil }, cancel: {}))
        }
    }

    /// Runs throwing `work` when a slot is free, even if the calling task is cancelled
    /// meanwhile, and returns its result or rethrows its error.
    public func runUncancellable<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            enqueue(Job(id: 0, run: { continuation.resume(with: Result(catching: work)); return nil }, cancel: {}))
        }
    }

    /// Runs `first` when a slot is free, then each step it names on the executor the step
    /// names, and returns the last step's value or rethrows the error of the step that threw.
    ///
    /// Each step runs within its executor's width. The calling task is resumed once, with the
    /// end result: the steps go from thread to thread directly, and the thread that ran a step
    /// runs the next one itself when it would otherwise go idle and the next executor has a
    /// free slot (no wake-up at all). So a file read on ``fileIO`` followed by its decode on
    /// ``processing`` costs two thread hand-overs (out of the concurrency pool and back), not
    /// four.
    ///
    /// ```swift
    /// let image = try await BlockingWorkExecutor.fileIO.run(steps: {
    ///     let data = try read(file)
    ///     return .next(on: .processing) { .done(try decode(data)) }
    /// })
    /// ```
    /// - Throws: A step's error; `CancellationError` when the calling task is cancelled before
    ///   the first step starts or while a later one waits for a slot (a step that has started
    ///   runs to its end, but the next one does not start).
    public func run<Value: Sendable>(steps first: @escaping @Sendable () throws -> BlockingWorkStep<Value>) async throws -> Value {
        let chain = Locked(Chain())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let starts = submit(first, chain: chain) { continuation.resume(with: $0) }
                for _ in 0..<starts { startWorker() }
            }
        } onCancel: {
            // With the submit's check under the executor's lock, a cancellation either finds the
            // waiting step in its queue or is seen before the step is queued.
            let queued = chain.withLock { chain in
                chain.cancelled = true
                return chain.queued
            }
            chain.withLock { $0.cancellation }.cancel()
            if let queued {
                queued.executor.state.withLock { $0.remove(id: queued.id) }?.cancel()
            }
        }
    }

    /// Queues `work`, a step of `chain`, unless the chain is cancelled: then `resume` gets a
    /// cancellation at once. Returns the number of workers to start for it.
    private func submit<Value: Sendable>(
        _ work: @escaping @Sendable () throws -> BlockingWorkStep<Value>,
        chain: Locked<Chain>,
        resume: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> Int {
        let starts = state.withLock { state -> Int? in
            state.nextID += 1
            let id = state.nextID
            let cancelled = chain.withLock { chain -> Bool in
                if chain.cancelled { return true }
                chain.queued = (self, id)
                return false
            }
            if cancelled { return nil }
            let job = Job(
                id: id,
                run: { BlockingWorkExecutor.runStep(work, chain: chain, resume: resume) },
                cancel: { resume(.failure(CancellationError())) },
                cancellation: chain.withLock { $0.cancellation }
            )
            state.queue.append(job)
            return state.reserveWorkers()
        }
        guard let starts else {
            resume(.failure(CancellationError()))
            return 0
        }
        return starts
    }

    /// Runs one step of a chain on the current thread and queues its next step, if any.
    /// - Returns: The executor of the next step when it reserved a worker slot for it: the
    ///   current thread takes that slot when it has nothing else to do (see `drain()`).
    private static func runStep<Value: Sendable>(
        _ work: @Sendable () throws -> BlockingWorkStep<Value>,
        chain: Locked<Chain>,
        resume: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> BlockingWorkExecutor? {
        let step: BlockingWorkStep<Value>
        do {
            step = try work()
        } catch {
            resume(.failure(error))
            return nil
        }
        switch step {
        case .done(let value):
            resume(.success(value))
            return nil
        case .next(let executor, let next):
            let starts = executor.submit(next, chain: chain, resume: resume)
            guard starts > 0 else { return nil }
            for _ in 1..<starts { executor.startWorker() }
            return executor
        }
    }

    private func enqueue(_ job: Job) {
        let start = state.withLock { state -> Int in
            state.queue.append(job)
            return state.reserveWorkers()
        }
        for _ in 0..<start { startWorker() }
    }

    /// Starts one worker thread, which holds one of the slots `reserveWorkers()` counted: it
    /// runs queued jobs until none is left, and may then go on as a worker of the executor a
    /// chained step was handed to.
    private func startWorker() {
        state.withLock { $0.startedWorkers += 1 }
        // Not on DispatchQueue.global(): on Linux, Swift's concurrency pool runs on that same
        // root queue, which keeps one thread per core busy at most, so `width` CPU-bound jobs
        // (the default width is the number of cores) would leave no thread for any task (a
        // request's deadline, a health check) until one ends (issue 33: 504s 16-35 s late). A
        // serial queue of its own runs on Dispatch's overcommitting root queue, which starts a
        // thread when none is free; the width still bounds how many jobs run.
        DispatchQueue(label: name).async { [self] in
            var executor = self
            while let next = executor.drain() { executor = next }
        }
    }

    /// Runs queued jobs on the current thread, which holds one of this executor's slots, until
    /// none is left (or the width went down), then gives the slot back.
    /// - Returns: An executor whose slot a chained step reserved for this thread, taken when
    ///   this executor had nothing else queued; `nil` when the thread is done.
    private func drain() -> BlockingWorkExecutor? {
        while let job = state.withLock({ state -> Job? in
            guard let job = state.dequeue() else {
                state.running -= 1
                return nil
            }
            return job
        }) {
            let handoff = JobCancellation.running(job.cancellation, job.run)
            // Stop for a lower width, or to run the handed-over step when nothing else waits
            // here: the thread would go idle anyway, so no other thread is woken for it.
            let stop = state.withLock { state -> Bool in
                guard state.running > state.width || (handoff != nil && state.pendingCount == 0) else { return false }
                state.running -= 1
                return true
            }
            if stop { return handoff }
            // Jobs wait here: the next step gets a thread of its own.
            handoff?.startWorker()
        }
        return nil
    }
}
