import Foundation

/// Runs work that cannot be interrupted (a render inside a C library: librsvg, poppler) on a
/// thread of its own and waits for it at most a time limit.
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

    /// Runs `body` on a new thread; returns its result, or throws at `limit` seconds.
    /// The caller's thread blocks while it waits (callers are decode threads, not the
    /// concurrency pool).
    /// - Parameters:
    ///   - limit: The longest wait, in seconds.
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
            let result = Result { try body() }
            if box.finish(result) {
                overdue.withLock { $0 -= 1 }
            }
        }
        thread.stackSize = Self.stackSize
        thread.name = "SwiftWebImage.render"
        thread.start()
        if box.done.wait(timeout: .now() + max(0.001, limit)) == .success {
            return try box.take().get()
        }
        if box.abandon() {
            overdue.withLock { $0 += 1 }
            throw WebImageError(.imageTooLarge, "\(what): rendering took longer than its time limit of \(limit) s (left to finish on its own thread, its result dropped)")
        }
        return try box.take().get()
    }

    /// The hand-over between the render thread and the waiting caller.
    private final class ResultBox<T: Sendable>: Sendable {
        /// Signalled once the render has stored its result.
        let done = DispatchSemaphore(value: 0)
        private let state = Locked<(result: Result<T, any Error>?, abandoned: Bool)>((nil, false))

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
