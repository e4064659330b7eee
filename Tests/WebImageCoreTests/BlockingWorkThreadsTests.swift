import Dispatch
import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCore

/// An executor's jobs run on threads of their own, never on the Swift concurrency pool's. On
/// Linux the pool, `DispatchQueue.global()` and concurrent queues share as many threads as
/// cores (more are added only for threads that block, not for busy ones), and long transforms
/// there stopped every task of the process, a server's deadlines included.
///
/// Decision: the test compares the threads' names (Dispatch names each thread after its root
/// queue: the pool's are `com.apple.root.default-qos`, truncated by Linux to 15 bytes) instead
/// of timing a task while jobs compute: in a full parallel run the pool is shared by hundreds of
/// tests, and a timing would measure them.
@Suite struct BlockingWorkThreadsTests {
    /// The calling thread's name (Linux's `/proc/thread-self/comm`).
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func jobsRunOffTheSwiftPoolsThreads() async throws {
        let poolThread = await Task.detached { Self.threadName() }.value
        let executor = BlockingWorkExecutor(name: "BlockingWorkThreadsTests", width: 2)
        let jobThreads = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { try await executor.run { Self.threadName() } } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(!poolThread.isEmpty)
        #expect(!jobThreads.contains(poolThread), "jobs ran on \(jobThreads), the Swift pool runs on \(poolThread)")
        // The shared executors too.
        let processingThread = try await BlockingWorkExecutor.processing.run { Self.threadName() }
        #expect(processingThread != poolThread)
    }
}
