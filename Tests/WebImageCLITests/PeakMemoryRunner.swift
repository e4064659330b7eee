import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `webimage` as a child of its own (`posix_spawn`, output to /dev/null) and
/// reads the child's peak resident set from `wait4`'s resource usage: the memory that one
/// command took, untouched by the test process or by other tests' children.
enum PeakMemoryRunner {
    struct Outcome {
        /// The exit status (or 128 + the signal).
        let status: Int32
        /// `ru_maxrss` of the child, in bytes.
        let peakBytes: Int

        var peakMB: Double { Double(peakBytes) / 1_000_000 }
    }

    static func run(_ arguments: [String], home: URL) async throws -> Outcome {
        let executable = try CLIRunner.executableURL().path
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        let argv = [executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        // wait4 blocks: run it on a dispatch thread, never on the concurrency pool.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try spawnAndWait(executable, argv, envp) })
            }
        }
    }

    private static func spawnAndWait(_ path: String, _ argv: [String], _ envp: [String]) throws -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = envp.map { strdup($0) } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, cArgs, cEnv)
        guard spawned == 0 else {
            Issue.record("posix_spawn of \(path) failed: \(spawned)")
            throw CancellationError()
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else {
                Issue.record("wait4 failed: errno \(errno)")
                throw CancellationError()
            }
        }
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(status: code, peakBytes: Int(usage.ru_maxrss) * 1024)  // KiB on Linux
    }
}
