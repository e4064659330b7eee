import Foundation

/// Runs work that cannot be interrupted (a render inside a C library: librsvg, poppler) on a
/// thread of its own and waits for it at most a time limit.
///
/// The limit is the render thread's own CPU time (decision): a render that is slow only because
/// a busy machine gives it a core now and then is not failed, while a document that makes the
/// renderer compute too long is. A render that waits instead of computing is given up at
/// ``wallClockFactor`` times the limit of wall time.
///
/// A render past its limit is not stopped: the caller gets
/// ``WebImageError/Code/imageTooLarge`` at the limit and the thread is left to finish; what it
/// makes is then freed and dropped. While ``maximumOverdue`` such renders are still running,
/// new renders are refused at once (the same error, saying so) instead of starting more threads
/// that could stick as well: CPU and memory stay bounded by that many renders.
///
/// A coder keeps one for its renders (the SVG and PDF plug-ins each have one allowing 2 overdue
/// renders); tests make their own, so that the renders they leave running do not refuse other
/// tests' renders.
///
/// Thread-safety: every member may be called from any thread.
public final class TimeLimitedRenderThread: Sendable {
    /// The stack of a render thread (16 MiB): deep documents recurse in the renderer.
    public static let stackSize = 16 << 20

    /// How many times its limit of wall time a render may take, whatever CPU it used (4).
    public static let wallClockFactor = 4.0

    /// The most renders left running past their limit before new ones are refused.
    public let maximumOverdue: Int
    /// How many renders run past their limit now.
    private let overdue = Locked(0)

    /// A runner that refuses new renders while `maximumOverdue` (at least 1) run past their limit.
    public init(maximumOverdue: Int) {
        self.maximumOverdue = max(1, maximumOverdue)
    }

    /// The number of renders running past their limit now.
    public var overdueCount: Int { overdue.withLock { $0 } }

    /// Runs `body` on a new thread; returns its result, or throws once the thread has used
    /// `limit` seconds of CPU (or after ``wallClockFactor`` times `limit` of wall time).
    /// The caller's thread blocks while it waits (callers are decode threads, not the
    /// concurrency pool).
    /// - Parameters:
    ///   - limit: The render thread's CPU time allowed, in seconds.
    ///   - what: Names the work in the errors' messages.
    ///   - body: The work.
    /// - Throws: What `body` throws; ``WebImageError/Code/imageTooLarge`` at the limit, or at
    ///   once while ``maximumOverdue`` renders run past theirs.
    public func run<T: Sendable>(limit: Double, what: String, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let busy = overdue.withLock { $0 }
        guard busy < maximumOverdue else {
            throw WebImageError(.imageTooLarge, "\(what): refused, \(busy) earlier renders are still running past their time limit")
        }
        let box = ResultBox<T>()
        let overdue = self.overdue
        let thread = Thread {
            box.publishCPUClock()
            let result = Result { try body() }
            if box.finish(result) {
                overdue.withLock { $0 -= 1 }
            }
        }
        thread.stackSize = Self.stackSize
        thread.name = "SwiftWebImage.render"
        thread.start()
        let limit = max(0.001, limit)
        let wallDeadline = DispatchTime.now() + limit * Self.wallClockFactor
        // Checked every 50 ms (or sooner for a shorter limit).
        let slice = min(limit, 0.05)
        while box.done.wait(timeout: .now() + slice) == .timedOut {
            let cpu = box.cpuSeconds() ?? 0
            let timedOut = DispatchTime.now() >= wallDeadline
            guard cpu >= limit || timedOut else { continue }
            guard box.abandon() else { break }
            overdue.withLock { $0 += 1 }
            let how = cpu >= limit ? "used more CPU than its time limit of \(limit) s" : "took longer than \(Self.wallClockFactor) times its time limit of \(limit) s"
            throw WebImageError(.imageTooLarge, "\(what): rendering \(how) (left to finish on its own thread, its result dropped)")
        }
        return try box.take().get()
    }

    /// The hand-over between the render thread and the waiting caller.
    private final class ResultBox<T: Sendable>: Sendable {
        /// Signalled once the render has stored its result.
        let done = DispatchSemaphore(value: 0)
        private let state = Locked<(result: Result<T, any Error>?, abandoned: Bool)>((nil, false))
        /// The render thread's CPU-time clock, once the thread has published it.
        private let cpuClock = Locked<clockid_t?>(nil)

        /// Called on the render thread first: publishes its CPU-time clock.
        func publishCPUClock() {
            var clock = clockid_t()
            if pthread_getcpuclockid(pthread_self(), &clock) == 0 {
                cpuClock.withLock { $0 = clock }
            }
        }

        /// The CPU time the render thread has used, or `nil` before it started (or when its
        /// clock cannot be read: the thread has ended, and its result is about to arrive).
        func cpuSeconds() -> Double? {
            guard let clock = cpuClock.withLock({ $0 }) else { return nil }
            var time = timespec()
            guard clock_gettime(clock, &time) == 0 else { return nil }
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }

        /// Stores the result; returns `true` when the caller had already given up on it.
        func finish(_ result: Result<T, any Error>) -> Bool {
            let abandoned = state.withLock { state in
                if !state.abandoned { state.result = result }
                return state.abandoned
            }
            done.signal()
            return abandoned
        }

        /// Marks the render as given up on; `false` when its result arrived meanwhile.
        func abandon() -> Bool {
            state.withLock { state in
                guard state.result == nil else { return false }
                state.abandoned = true
                return true
            }
        }

        /// The render's result (an error if there is none).
        func take() -> Result<T, any Error> {
            state.withLock { $0.result } ?? .failure(WebImageError(.badImageData, "the render gave no result"))
        }
    }
}
