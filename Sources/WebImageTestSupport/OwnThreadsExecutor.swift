import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#endif

/// A task executor with threads of its own (one per core), outside Swift's cooperative pool,
/// for tests whose work is long synchronous CPU work (encoding, decoding, resampling, hashing
/// pixels). Tests get onto it through the ``OwnThreadsTrait`` (`@Suite(.onOwnThreads)`).
///
/// Why: `swift test` starts every test at once on the cooperative pool, which has one thread
/// per core (two on the CI machine) and runs its jobs in the order they were queued. Every
/// `await` of every test resumes behind all the CPU work the other tests have queued by then,
/// so a test with many sequential hops (two hundred queued downloads, twenty round trips to a
/// Redis server) waits for about the whole suite's CPU work, and on a loaded machine hits its
/// time limit or the command timeout of the code under test. Jobs on this executor queue
/// behind each other only; the pool keeps the light, latency-sensitive work, and the kernel
/// shares the cores between both sets of threads.
///
/// The threads run for the life of the process; a job runs to its next suspension point, so a
/// test that blocks a thread here holds one of its few threads: tests still must not block
/// (`scripts/check-test-blocking`).
///
/// Thread-safety: ``enqueue(_:)`` may be called from any thread.
public final class OwnThreadsExecutor: TaskExecutor, Sendable {
    /// The executor the ``OwnThreadsTrait`` runs tests on: one thread per active core.
    public static let shared = OwnThreadsExecutor(threadCount: ProcessInfo.processInfo.activeProcessorCount, name: "own-threads")

    /// The jobs not started yet, oldest first.
    private let queue = Locked(JobQueue())
    /// Counts the jobs in ``queue``: a worker takes one per signal.
    private let available = DispatchSemaphore(value: 0)
    /// The workers' `pthread_self()`, each added by the worker before it runs a job.
    private let workers = Locked<Set<pthread_t>>([])

    /// An executor with `threadCount` threads of its own (at least one), named `name-1`,
    /// `name-2`, ... (the names show in `top`, `gdb` and `perf`, which keep 15 bytes of them).
    public init(threadCount: Int, name: String) {
        for index in 1...max(1, threadCount) {
            let thread = Thread { [self] in
                Self.nameCurrentThread("\(name)-\(index)")
                workers.withLock { _ = $0.insert(pthread_self()) }
                work()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Queues `job`: the next free worker runs it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.push(job) }
        available.signal()
    }

    /// Whether the calling thread is one of this executor's workers.
    public var isCurrent: Bool {
        let current = pthread_self()
        return workers.withLock { $0.contains(current) }
    }

    private func work() {
        while true {
            available.wait()  // blocking: a worker of this executor, never a pool thread
            guard let job = queue.withLock({ $0.pop() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Names the calling thread for the kernel (what `top -H`, `gdb` and `perf` show): through
    /// `/proc`, since the Glibc module has no `pthread_setname_np`, and Foundation's
    /// `Thread.name` did not reach the kernel's name reliably (seen: a worker still named
    /// after the process).
    private static func nameCurrentThread(_ name: String) {
        guard let file = fopen("/proc/thread-self/comm", "w") else { return }
        fputs(String(name.utf8.prefix(15)) ?? name, file)
        fclose(file)
    }

    /// A first-in first-out queue of jobs: two stacks, so that both ends cost O(1) on average.
    private struct JobQueue: Sendable {
        private var incoming: [UnownedJob] = []
        private var outgoing: [UnownedJob] = []

        mutating func push(_ job: UnownedJob) {
            incoming.append(job)
        }

        mutating func pop() -> UnownedJob? {
            if outgoing.isEmpty {
                outgoing = incoming.reversed()
                incoming.removeAll(keepingCapacity: true)
            }
            return outgoing.popLast()
        }
    }
}
