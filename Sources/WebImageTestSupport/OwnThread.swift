import Foundation

/// Runs blocking work on a thread of its own, so that the caller's task suspends instead of
/// holding a thread of Swift's cooperative pool.
///
/// Why: on Linux the pool has one thread per core (two on the CI machine). A test that blocks a
/// pool thread (waiting for a child process, reading a pipe to its end, waiting on a semaphore)
/// leaves the whole parallel run with one thread or none; every other test's continuation then
/// waits, and the timers of the code under test (a download's idle timeout, a server's request
/// deadline) fire in tests that did nothing wrong. `scripts/check-test-blocking` (run by
/// `.ci/run`) refuses such calls in test code outside this file and the lines marked as running
/// on a thread of their own.
public enum OwnThread {
    /// Runs `body` on a new thread and returns (or throws) what it returned (or threw).
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    /// Runs `body`, which cannot throw, on a new thread and returns what it returned.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: body())
            }
        }
    }
}
