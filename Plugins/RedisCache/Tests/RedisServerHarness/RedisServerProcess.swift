import Foundation
import WebImageCore
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A throw-away `redis-server` for tests and benchmarks: on 127.0.0.1 only, on a free port,
/// with no persistence (`--save ''`, `--appendonly no`) and a temporary working directory that
/// is removed at ``stop()``.
///
/// ```swift
/// let server = try await RedisServerProcess.start()
/// defer { server.stop() }
/// let client = RedisClient(configuration: .init(port: server.port))
/// ```
///
/// Readiness is deterministic: the server logs to a pipe, and ``start(extraArguments:)``
/// returns once it has logged "Ready to accept connections" and answered a PING (a bounded
/// retry loop, 10 s at most, then it fails with the server's log).
///
/// Thread-safety: every method may be called from any thread.
public final class RedisServerProcess: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    /// The extra arguments it was started with (kept for ``restart()``).
    public let extraArguments: [String]
    /// The temporary directory of the process (its working directory; removed at ``stop()``).
    let directory: URL
    private let flavor: Flavor
    private let state: Locked<State>

    /// What is launched: `redis-server`, or a Sentinel (``RedisSentinelProcess``).
    struct Flavor: Sendable {
        /// The program, `nil` when it is not installed.
        var executablePath: String?
        /// Its name, for messages.
        var name: String
        /// Writes what the process needs into its directory before each launch, for the
        /// port it gets, and returns the arguments that go before the common options (a
        /// configuration file, which must come first).
        var prepare: @Sendable (_ directory: URL, _ port: Int) throws -> [String]
        /// The line it logs once it listens.
        var readinessLine: String

        /// A plain `redis-server`.
        static let server = Flavor(executablePath: RedisServerProcess.executablePath, name: "redis-server", prepare: { _, _ in [] }, readinessLine: "Ready to accept connections")
    }

    private struct State {
        var running: RunningServer?
        var log = ""
    }

    /// Where `redis-server` is: on `PATH`, or in the usual system directories; `nil` when it is
    /// not installed (Debian: `apt-get install redis-server`).
    public static let executablePath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/usr/sbin", "/opt/homebrew/bin"]
        return directories.map { $0 + "/redis-server" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether `redis-server` is installed.
    public static var isAvailable: Bool { executablePath != nil }

    private init(port: Int, extraArguments: [String], directory: URL, flavor: Flavor) {
        self.port = port
        self.extraArguments = extraArguments
        self.directory = directory
        self.flavor = flavor
        self.state = Locked(State())
    }

    deinit {
        stop()
    }

    /// Starts a server on a free loopback port and waits until it answers.
    /// - Parameter extraArguments: More `redis-server` options (`["--requirepass", "secret"]`).
    /// - Throws: ``HarnessError`` when `redis-server` is missing or does not come up.
    public static func start(extraArguments: [String] = []) async throws -> RedisServerProcess {
        try await start(flavor: .server, extraArguments: extraArguments)
    }

    /// Starts a process of `flavor` on a free loopback port and waits until it answers.
    static func start(flavor: Flavor, extraArguments: [String]) async throws -> RedisServerProcess {
        _ = orphansRemoved
        var lastError: (any Error)?
        // The free port may be taken by someone else before the server binds it: try again.
        for _ in 0..<5 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(directoryPrefix + UUID().uuidString, isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(String(getpid()).utf8).writeWithoutSync(to: directory.appendingPathComponent(ownerFileName))
            let server = RedisServerProcess(port: try LoopbackSockets.freePort(), extraArguments: extraArguments, directory: directory, flavor: flavor)
            do {
                try await server.launch()
                return server
            } catch {
                server.stop()
                lastError = error
            }
        }
        throw lastError ?? HarnessError("\(flavor.name) did not start")
    }

    /// Whether the server process is running.
    public var isRunning: Bool {
        state.withLock { $0.running?.process.isRunning ?? false }
    }

    /// What the server has logged so far (for failure messages).
    public var log: String {
        state.withLock { $0.log }
    }

    /// Kills the server at once (SIGKILL: no shutdown, connections reset), as a crash would,
    /// and suspends until it has exited (its reaper thread has seen it end). The port stays
    /// reserved for ``restart()``.
    public func kill() async {
        await killAndWait()
    }

    /// Freezes the server (SIGSTOP): its connections stay open and its port takes connections,
    /// but it answers nothing, as a hung or cut-off server. ``resume()`` undoes it.
    public func pause() {
        state.withLock { $0.running }?.process.send(SIGSTOP)
    }

    /// Lets a server frozen by ``pause()`` run again (SIGCONT).
    public func resume() {
        state.withLock { $0.running }?.process.send(SIGCONT)
    }

    /// Starts the server again on the same port after ``kill()`` (an empty database).
    /// - Throws: ``HarnessError`` when it does not come up.
    public func restart() async throws {
        await killAndWait()
        try await launch()
    }

    /// Stops the server and removes its directory. Idempotent. Does not wait for the process
    /// to end (its reaper thread collects it within milliseconds), so that it can run in a
    /// `defer` or a `deinit` without holding the calling thread; ``kill()`` waits.
    ///
    /// SIGKILL, not SIGTERM: the server keeps nothing worth a graceful shutdown, and a child
    /// spawned from a dispatch worker thread inherits that thread's blocked signals, so SIGTERM
    /// could stay pending forever.
    public func stop() {
        takeRunning()?.process.send(SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Orphans

    private static let directoryPrefix = "redis-test-"
    private static let ownerFileName = "owner.pid"
    private static let serverFileName = "server.pid"

    /// ``removeOrphans()``, once per test process (at its first start): orphans are left by
    /// processes that ended before this one, and scanning the temporary directory for every
    /// one of the suite's hundreds of servers was CPU work on the test pool.
    private static let orphansRemoved: Void = removeOrphans()

    /// Kills the servers of test processes that died without stopping them (a crash, a
    /// timeout kill), found by their directories: the owner's pid is gone, the server's pid
    /// still runs `redis-server` (or `redis-sentinel`). Only servers this harness started are
    /// touched.
    static func removeOrphans() {
        let temporary = FileManager.default.temporaryDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix(directoryPrefix) {
            let directory = temporary.appendingPathComponent(name, isDirectory: true)
            guard let owner = readPID(directory.appendingPathComponent(ownerFileName)), !isAlive(owner) else { continue }
            if let server = readPID(directory.appendingPathComponent(serverFileName)),
               let command = try? String(contentsOfFile: "/proc/\(server)/cmdline", encoding: .utf8),
               command.contains("redis-server") || command.contains("redis-sentinel") {
                _ = systemKill(server, SIGKILL)
            }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private static func readPID(_ url: URL) -> Int32? {
        (try? String(contentsOf: url, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private static func isAlive(_ pid: Int32) -> Bool {
        systemKill(pid, 0) == 0 || errno == EPERM
    }

    // MARK: Process management

    private final class RunningServer: Sendable {
        let process: SpawnedProcess
        let ready = Locked<CheckedContinuation<Bool, Never>?>(nil)

        init(process: SpawnedProcess) {
            self.process = process
        }
    }

    private func launch() async throws {
        guard let executable = flavor.executablePath else {
            throw HarnessError("\(flavor.name) is not installed (Debian: apt-get install \(flavor.name))")
        }
        let arguments = try flavor.prepare(directory, port) + [
            "--port", String(port), "--bind", "127.0.0.1", "--protected-mode", "yes",
            "--save", "", "--appendonly", "no", "--dir", directory.path, "--logfile", "",
            "--daemonize", "no",
        ] + extraArguments
        // Spawned without Foundation's Process (see SpawnedProcess: it can crash the test
        // process on Linux); the log is read on a thread of its own.
        let output = try SpawnedProcess.pipe()
        let process: SpawnedProcess
        do {
            process = try await SpawnedProcess.start(executable, arguments: arguments, standardOutput: output.write, standardError: output.write)
        } catch {
            close(output.read)
            close(output.write)
            throw HarnessError("\(flavor.name) could not start: \(error)")
        }
        close(output.write)
        let running = RunningServer(process: process)
        state.withLock { $0.log = "" }

        let sawReady: Bool = await withCheckedContinuation { continuation in
            running.ready.withLock { $0 = continuation }
            // Drain the log for the server's whole life (a full pipe would block it), and
            // report the readiness line once.
            let readinessLine = flavor.readinessLine
            Thread.detachNewThread { [state] in
                while true {
                    let chunk = SpawnedProcess.readSome(output.read)  // blocking: own thread
                    if chunk.isEmpty { break }
                    let text = String(decoding: chunk, as: UTF8.self)
                    let full = state.withLock { state -> String in
                        state.log = String((state.log + text).suffix(16_000))
                        return state.log
                    }
                    if full.contains(readinessLine) {
                        running.ready.withLock { $0.take() }?.resume(returning: true)
                    }
                }
                close(output.read)
                running.ready.withLock { $0.take() }?.resume(returning: false)
            }
            state.withLock { $0.running = running }
            try? Data(String(process.processIdentifier).utf8).writeWithoutSync(to: directory.appendingPathComponent(Self.serverFileName))
            // A server that neither logs readiness nor exits within 10 s counts as failed.
            DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
                running.ready.withLock { $0.take() }?.resume(returning: false)
            }
        }
        guard sawReady else {
            await killAndWait()
            throw HarnessError("\(flavor.name) on port \(port) did not become ready; its log:\n\(log)")
        }
        // Bounded confirmation: the listener is up once the line is logged.
        for _ in 0..<50 {
            if LoopbackSockets.ping(port: port) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        await killAndWait()
        throw HarnessError("\(flavor.name) on port \(port) logged readiness but does not answer PING; its log:\n\(log)")
    }

    /// The running process, which is then no longer this server's.
    private func takeRunning() -> RunningServer? {
        state.withLock { state in
            defer { state.running = nil }
            return state.running
        }
    }

    /// Sends SIGKILL and suspends until the process has ended: its reaper thread (see
    /// ``SpawnedProcess``) resumes the wait once `waitpid` has returned, so its sockets are
    /// closed and its port is free. Nothing polls, and no thread of the pool waits.
    private func killAndWait() async {
        guard let running = takeRunning() else { return }
        running.process.send(SIGKILL)
        _ = await running.process.wait()
    }

    private static func systemKill(_ pid: Int32, _ signal: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.kill(pid, signal)
        #elseif canImport(Musl)
        Musl.kill(pid, signal)
        #else
        Darwin.kill(pid, signal)
        #endif
    }
}
