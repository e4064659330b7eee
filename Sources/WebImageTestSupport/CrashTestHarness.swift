public import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Kills a child process with SIGKILL in the middle of its work, for crash-safety tests of
/// stores: run a writer, kill it mid-write, then check what a reader finds.
///
/// The child is an executable target of the test's package (make the test target depend on it,
/// so that it is built with the tests). It does its steps through ``runChild(steps:_:)``, which
/// prints a line after each completed step; the harness reads the child's standard output and
/// kills it the moment the chosen step's line arrives, so the kill lands in a later step. No
/// timing guesses: the signal is the line.
///
/// ```swift
/// // The test:
/// let harness = try CrashTestHarness(productNamed: "CacheCrashWriter")
/// let outcome = try await harness.run(arguments: [directory.path, "1000"], killAfterStep: 99)
/// #expect(outcome.sawLine && outcome.wasKilled)
///
/// // The child (main.swift of CacheCrashWriter):
/// CrashTestHarness.runChild(steps: count) { index in try cache.setData(payload(index), forKey: "entry-\(index)") }
/// ```
///
/// The child's standard error is the test's (a failing child's message shows in the test log).
public struct CrashTestHarness: Sendable {
    /// How a child process ended.
    public enum Termination: Sendable, Hashable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (`SIGKILL` when the harness killed it).
        case signaled(Int32)
    }

    /// What happened to one run of the child.
    public struct Outcome: Sendable, Hashable {
        /// Whether the child printed the awaited line (the harness then killed it at once).
        public var sawLine: Bool
        /// How the child ended.
        public var termination: Termination

        /// Whether the child ended by SIGKILL.
        public var wasKilled: Bool { termination == .signaled(SIGKILL) }
    }

    /// The child executable.
    public let executable: URL

    /// A harness for the executable at `executable`.
    public init(executable: URL) {
        self.executable = executable
    }

    /// A harness for the executable product `name` of the package under test, looked up in
    /// the build products directory: the folder of the running test binary, or up to four
    /// folders above it.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` when it is not there (the message says
    ///   where it looked and that the test target must depend on the executable target).
    public init(productNamed name: String) throws {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
        for _ in 0...4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                self.init(executable: candidate)
                return
            }
            directory.deleteLastPathComponent()
        }
        throw WebImageError(
            .invalidArgument,
            "the crash-test child \(name) is not next to the test binary \(testBinary) nor up to four folders above it: make the test target depend on the executable target \(name) so that it is built with the tests"
        )
    }

    /// The line a child prints after completing step `index` (what ``runChild(steps:_:)``
    /// prints and ``run(arguments:killAfterStep:)`` waits for), without the newline.
    public static func line(afterStep index: Int) -> String {
        "step \(index) done"
    }

    /// Runs the child with `arguments` and kills it with SIGKILL right after it reports that
    /// step `step` is done.
    ///
    /// If the child ends before it reports the step, the outcome says so (`sawLine` is false)
    /// with how it ended.
    /// - Throws: ``SpawnedProcess/Failure`` when the child cannot start.
    public func run(arguments: [String], killAfterStep step: Int) async throws -> Outcome {
        try await run(arguments: arguments, killAfterLine: Self.line(afterStep: step))
    }

    /// Runs the child with `arguments` and kills it with SIGKILL as soon as a whole line of its
    /// standard output is `line`; then waits for it to end.
    ///
    /// The child is spawned with ``SpawnedProcess``; the blocking pipe reads and the wait run on
    /// threads of their own, not on the Swift concurrency pool.
    /// - Throws: ``SpawnedProcess/Failure`` when the child cannot start.
    public func run(arguments: [String], killAfterLine line: String) async throws -> Outcome {
        let output = try SpawnedProcess.pipe()
        let marker = Array((line + "\n").utf8)
        let executable = executable
        // Spawned on the thread that then reads its output, at once: a hop back to the task
        // pool between the two (slow at the start of a full run) let the child finish every
        // step before anything read the line it was to be killed at.
        let (child, sawLine) = try await OwnThread.run { () throws -> (SpawnedProcess, Bool) in
            let child: SpawnedProcess
            do {
                child = try SpawnedProcess(executable.path, arguments: arguments, standardOutput: output.write, standardError: 2)  // blocking: own thread
            } catch {
                close(output.read)
                close(output.write)
                throw error
            }
            close(output.write)
            // The bytes since the last newline, plus the chunk: a line may arrive in pieces.
            var pending: [UInt8] = [UInt8(ascii: "\n")]
            var sawLine = false
            while true {
                let chunk = SpawnedProcess.readSome(output.read)  // blocking: own thread
                if chunk.isEmpty { break }  // the child ended
                pending.append(contentsOf: chunk)
                if Self.containsLine(marker, in: pending) {
                    sawLine = true
                    child.send(SIGKILL)
                    break
                }
                if let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) {
                    pending.removeSubrange(..<lastNewline)
                }
            }
            close(output.read)
            return (child, sawLine)
        }
        let termination: Termination
        switch await child.wait() {
        case .exited(let status): termination = .exited(status)
        case .signaled(let signal): termination = .signaled(signal)
        }
        return Outcome(sawLine: sawLine, termination: termination)
    }

    /// Whether `bytes` (which start at a line start, after a newline) hold `"\n" + line + "\n"`.
    private static func containsLine(_ marker: [UInt8], in bytes: [UInt8]) -> Bool {
        let needle = [UInt8(ascii: "\n")] + marker
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// The main loop of a crash-test child: runs `step` for 0, 1, ... `count - 1`, printing
    /// ``line(afterStep:)`` on standard output after each (unbuffered, so the harness sees it
    /// at once), then `done`, and exits with status 0. If a step throws, the error goes to
    /// standard error and the child exits with status 1.
    public static func runChild(steps count: Int, _ step: (Int) throws -> Void) -> Never {
        for index in 0..<count {
            do {
                try step(index)
            } catch {
                FileHandle.standardError.write(Data("step \(index) failed: \(error)\n".utf8))
                exit(1)
            }
            FileHandle.standardOutput.write(Data((line(afterStep: index) + "\n").utf8))
        }
        FileHandle.standardOutput.write(Data("done\n".utf8))
        exit(0)
    }
}

extension CrashTestHarness {
    /// `size` bytes of a fixed xorshift stream: the payload a crash-writer child writes and the
    /// test checks against, the same in both processes.
    /// - Parameter size: How many bytes.
    public static func fixedPayload(size: Int) -> Data {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: size)
        for position in 0..<size {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[position] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }
}
