import Foundation
import WebImageTestSupport
import Testing

/// Runs the built `webimage` as a grandchild and reads its peak resident set from `wait4`'s
/// resource usage: the memory that one command took.
///
/// Why not a direct child: Linux carries the memory high-water mark of the image a process
/// leaves through `execve` into its `ru_maxrss`, and a child made by `posix_spawn` (vfork) or
/// `fork` of this test process leaves a copy of the whole test process (hundreds of MB while
/// other suites run). So a small `python3` forks the command itself (its own few MB are what
/// the command inherits, under `webimage`'s baseline) and reports `wait4`'s figures.
enum PeakMemoryRunner {
    struct Outcome {
        /// The exit status (or 128 + the signal).
        let status: Int32
        /// `ru_maxrss` of the command, in bytes.
        let peakBytes: Int
    }

    static let script = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.execv(sys.argv[1], sys.argv[1:])
        _, status, usage = os.wait4(pid, 0)
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
        print(code, usage.ru_maxrss)
        """

    /// Whether `python3` is on the `PATH` (the tests that need it say so when it is not).
    static var isAvailable: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { directory in
            FileManager.default.isExecutableFile(atPath: "\(directory)/python3")
        }
    }

    static func run(_ arguments: [String], home: URL) async throws -> Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        // Read and waited for on threads of their own, never on the concurrency pool.
        let text = try await ChildProcess.run("python3", ["-c", script, try CLIRunner.executableURL().path] + arguments, environment: environment).outputText
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let status = Int32(fields[0]), let kilobytes = Int(fields[1]) else {
            Issue.record("python3 did not report a status and peak RSS: \(text.debugDescription)")
            throw CancellationError()
        }
        return Outcome(status: status, peakBytes: kilobytes * 1024)  // KiB on Linux
    }
}
