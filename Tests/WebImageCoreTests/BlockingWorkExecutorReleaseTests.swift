import Foundation
import Testing
import WebImageCore

/// What a finished job captured is freed (issue 19): the executor's queue does not keep a
/// taken job, so a transform's source image or a decode's data does not outlive its job.
@Suite struct BlockingWorkExecutorReleaseTests {
    /// Something a job's work captures.
    private final class Captured: Sendable {
        let value = 7
    }

    @Test("a finished job's captures are freed once the next job has run, with fewer than 64 jobs behind it")
    func finishedJobIsNotKept() async throws {
        // Width 1: the next job runs after the worker has left the first job's iteration.
        let executor = BlockingWorkExecutor(name: "release-test", width: 1)
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            weakCaptured = captured
            let value = try await executor.run { captured.value }
            #expect(value == 7)
        }
        try await executor.run {}
        #expect(weakCaptured == nil)
    }

    @Test("a job that threw is freed as well")
    func failedJobIsNotKept() async throws {
        let executor = BlockingWorkExecutor(name: "release-test", width: 1)
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            weakCaptured = captured
            await #expect(throws: CocoaError.self) {
                try await executor.run { () throws -> Int in
                    guard captured.value == 0 else { throw CocoaError(.featureUnsupported) }
                    return captured.value
                }
            }
        }
        try await executor.run {}
        #expect(weakCaptured == nil)
    }
}
