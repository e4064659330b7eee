import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// ``CrashTestHarness``: it kills the child at the awaited line (a whole line, even when it
/// arrives in pieces), reports a child that ends first and how it ended, finds executables among
/// the build products, and its child loop reports every step, then ends.
@Suite struct CrashTestHarnessTests {
    static let shell = CrashTestHarness(executable: URL(fileURLWithPath: "/bin/sh"))

    @Test func killsTheChildRightAfterTheAwaitedLine() async throws {
        // After the line the child blocks until killed.
        let script = "printf 'step 0 done\\nstep 1 done\\n'; exec sleep 600"
        let outcome = try await Self.shell.run(arguments: ["-c", script], killAfterStep: 1)
        #expect(outcome.sawLine)
        #expect(outcome.wasKilled, "\(outcome.termination)")
        #expect(outcome.termination == .signaled(SIGKILL))
    }

    @Test func onlyTheWholeLineCounts() async throws {
        let script = "printf 'xstep 1 done\\nstep 1 done!\\nstep 11 done\\n'; exit 4"
        let outcome = try await Self.shell.run(arguments: ["-c", script], killAfterStep: 1)
        #expect(!outcome.sawLine)
        #expect(outcome.termination == .exited(4), "lines that merely contain the awaited one do not stop the child")
    }

    @Test func aLineInPiecesIsStillSeen() async throws {
        // Two writes with a pause between them: two reads of the pipe, most of the time.
        let script = "printf 'step 0 done\\nste'; sleep 0.1; printf 'p 2 done\\n'; exec sleep 600"
        let outcome = try await Self.shell.run(arguments: ["-c", script], killAfterStep: 2)
        #expect(outcome.sawLine)
        #expect(outcome.wasKilled)
    }

    @Test func aChildThatEndsFirstIsReportedWithItsStatus() async throws {
        let outcome = try await Self.shell.run(arguments: ["-c", "echo 'step 0 done'; exit 3"], killAfterStep: 1)
        #expect(!outcome.sawLine)
        #expect(outcome.termination == .exited(3))
        #expect(!outcome.wasKilled)
    }

    @Test func findsBuildProductsAndNamesWhatIsMissing() throws {
        let writer = try CrashTestHarness(productNamed: "CacheCrashWriter")
        #expect(writer.executable.lastPathComponent == "CacheCrashWriter")
        let error = #expect(throws: WebImageError.self) { try CrashTestHarness(productNamed: "NoSuchCrashWriter") }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("NoSuchCrashWriter") == true)
    }

    /// `runChild` (in CacheCrashWriter) reports each step and exits 0 after the last; a step
    /// that throws ends the child with status 1 (its message, in the test log, is expected).
    @Test func theChildLoopReportsStepsAndEnds() async throws {
        let writer = try CrashTestHarness(productNamed: "CacheCrashWriter")
        let directory = TestDirectory()
        let finished = try await writer.run(arguments: [directory.appending("cache").path, "3", "16"], killAfterStep: 3)
        #expect(!finished.sawLine, "there is no step 3 in 0..<3")
        #expect(finished.termination == .exited(0))
        let reachedLast = try await writer.run(arguments: [directory.appending("cache").path, "3", "16"], killAfterStep: 2)
        #expect(reachedLast.sawLine)

        try Data("a file".utf8).writeWithoutSync(to: directory.appending("file"))
        let failed = try await writer.run(arguments: [directory.appending("file").appendingPathComponent("cache").path, "3", "16"], killAfterStep: 0)
        #expect(!failed.sawLine)
        #expect(failed.termination == .exited(1))
    }
}
