import Dispatch
import WebImageCore

/// A gate that blocks threads (not tasks): executor jobs wait on it, as a slow read or decode
/// would. Once opened it stays open. Never wait on one from a task: it blocks the thread.
public final class ThreadGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let opened = Locked(false)

    /// A closed gate.
    public init() {}

    /// Blocks the calling thread until the gate is opened.
    public func wait() {
        if opened.withLock({ $0 }) { return }
        semaphore.wait()  // blocking: executor workers and threads of their own only
        semaphore.signal()
    }

    /// Opens the gate for every waiter, now and later.
    public func open() {
        opened.withLock { $0 = true }
        semaphore.signal()
    }
}
