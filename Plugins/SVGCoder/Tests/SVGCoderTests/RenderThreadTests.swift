import Foundation
@testable import SVGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The render runner's policy, on a runner of the test's own (the coder's shared one is left
/// alone): the caller waits at most the limit; renders past it keep running and are counted;
/// while two run, new renders are refused at once; once they finish, renders run again.
@Suite(.onOwnThreads) struct RenderThreadTests {
    @Test func overdueRendersAreCountedAndRefuseNewOnes() async throws {
        let runner = TimeLimitedRenderThread(maximumOverdue: 2)
        let gate = DispatchSemaphore(value: 0)
        let clock = ContinuousClock()
        try await OwnThread.run {
            for round in 0..<2 {
                let start = clock.now
                let error = try #require(throws: WebImageError.self) {
                    try runner.run(limit: 0.05, what: "blocked render \(round)") { gate.wait(); return 1 }  // blocking: the runner's own thread
                }
                #expect(error.code == .imageTooLarge && error.message.contains("time limit"), "\(error.message)")
                #expect(clock.now - start < .seconds(5))
            }
            #expect(runner.overdueCount == 2)
            let start = clock.now
            let refused = try #require(throws: WebImageError.self) { try runner.run(limit: 10, what: "a third render") { 3 } }
            #expect(refused.message.contains("still running past their time limit"), "\(refused.message)")
            #expect(clock.now - start < .seconds(1), "refused at once")
        }
        gate.signal()
        gate.signal()
        let deadline = clock.now + .seconds(30)
        while runner.overdueCount > 0, clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(runner.overdueCount == 0)
        let value = try await OwnThread.run { try runner.run(limit: 10, what: "after") { 42 } }
        #expect(value == 42)
        // An error thrown by the render reaches the caller as it is.
        let thrown = try await OwnThread.run {
            try #require(throws: WebImageError.self) { try runner.run(limit: 10, what: "failing") { () throws -> Int in throw WebImageError(.badImageData, "bad") } }
        }
        #expect(thrown.code == .badImageData)
    }

    /// The limit is the render thread's CPU time: a render that waits (a busy machine's render
    /// waits for a core) past its limit, within ``TimeLimitedRenderThread/wallClockFactor`` times
    /// it, gives its result; one that computes past it is given up.
    @Test func theLimitCountsTheRendersCPUTime() async throws {
        let runner = TimeLimitedRenderThread(maximumOverdue: 2)
        let waited = try await OwnThread.run {
            // Waits 1.5 s, computing nothing, with a 1 s limit (the wall-time bound is 4 s).
            try runner.run(limit: 1, what: "a waiting render") { () -> Int in
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 1.5)  // blocking: the runner's own thread
                return 7
            }
        }
        #expect(waited == 7)
        let stop = Locked(false)
        let error = try await OwnThread.run {
            try #require(throws: WebImageError.self) {
                try runner.run(limit: 0.2, what: "a computing render") { () -> Int in
                    var spins = 0
                    while !stop.withLock({ $0 }) { spins &+= 1 }
                    return spins
                }
            }
        }
        stop.withLock { $0 = true }
        #expect(error.code == .imageTooLarge && error.message.contains("time limit"), "\(error.message)")
    }
}
