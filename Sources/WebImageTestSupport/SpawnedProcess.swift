public import Foundation
#if canImport(Glibc)
import Glibc
#endif
import WebImageCore

/// A child process for tests, started with `posix_spawn` (not Foundation's `Process`), reaped by
/// a thread of its own.
///
/// Why not `Process`: on Linux, swift-corelibs-foundation's `Process.run()` scans
/// `/proc/self/fd` and copies 256 bytes of every directory entry's name, reading past short
/// entries; when the last one ends near an unmapped page the whole test process crashes
/// (swiftlang/swift-corelibs-foundation#5472, "Bad pointer dereference" at `Process.run() +
/// 6428`; one of three full runs here). Its `FileHandle` reads also stop the process with a
/// fatal error on `EINTR`. So tests spawn through this type, read pipes with
/// ``readToEnd(_:)`` (which retries `EINTR`), and `scripts/check-test-blocking` refuses
/// `Process()` in test code.
///
/// The child gets the three descriptors it is given (or `/dev/null`) as its standard input,
/// output and error, no other descriptor of the test process (`closefrom(3)` in the child), an
/// empty signal mask and default signal actions (a child of a Dispatch thread would otherwise
/// inherit blocked signals and ignore SIGTERM).
public final class SpawnedProcess: Sendable {
    /// How a child ended.
    public enum Termination: Hashable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)

        /// Whether it exited with status 0.
        public var succeeded: Bool { self == .exited(0) }
        /// The exit status, or the signal number.
        public var status: Int32 {
            switch self {
            case .exited(let status), .signaled(let status): status
            }
        }
    }

    /// A spawn that failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with the executable.
        public let description: String
    }

    private struct State {
        var termination: Termination?
        var waiters: [CheckedContinuation<Termination, Never>] = []
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    private let state = Locked(State())

    /// Starts `executable` (a path, or a name looked up on the `PATH`).
    /// - Parameters:
    ///   - executable: A path, or a name looked up on the `PATH`.
    ///   - arguments: The arguments after the program name.
    ///   - environment: The whole environment (default: the test process's).
    ///   - directory: The working directory (default: the test process's).
    ///   - standardInput: The descriptor the child gets as 0 (`nil`: `/dev/null`). The caller
    ///     keeps (and closes) its own, as for the next two.
    ///   - standardOutput: The descriptor the child gets as 1 (`nil`: `/dev/null`).
    ///   - standardError: The descriptor the child gets as 2 (`nil`: `/dev/null`).
    /// - Throws: ``Failure`` when the executable is missing or `posix_spawn` fails.
    public init(
        _ executable: String,
        arguments: [String],
        environment: [String: String]? = nil,
        directory: URL? = nil,
        standardInput: Int32? = nil,
        standardOutput: Int32? = nil,
        standardError: Int32? = nil
    ) throws {
        guard let path = ChildProcess.path(of: executable) else { throw Failure(description: "\(executable) is not installed (not on the PATH)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        if let directory, let chdir = Self.addChdir {
            _ = directory.path.withCString { chdir(&actions, $0) }
        }
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let status = (argv + [nil]).withUnsafeBufferPointer { argvPointer in
            (variables + [nil]).withUnsafeBufferPointer { envPointer in
                posix_spawn(&pid, path, &actions, &attributes, argvPointer.baseAddress!, envPointer.baseAddress!)
            }
        }
        guard status == 0 else {
            throw Failure(description: "posix_spawn of \(path) failed: \(String(cString: strerror(status)))")
        }
        processIdentifier = pid
        let child = pid
        let state = state
        // The reaper: waits for this child only (waitpid on its pid), on a thread of its own.
        Thread.detachNewThread {
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) < 0 {
                if errno != EINTR {
                    raw = 0x7F00  // unknown: report as exit status 127
                    break
                }
            }
            let termination: Termination = (raw & 0x7F) == 0 ? .exited((raw >> 8) & 0xFF) : .signaled(raw & 0x7F)
            let waiters = state.withLock { state -> [CheckedContinuation<Termination, Never>] in
                state.termination = termination
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: termination) }
        }
    }

    /// Starts `executable` as ``init(_:arguments:environment:directory:standardInput:standardOutput:standardError:)``
    /// does, on a thread of its own, and returns once the child runs. For callers on a task:
    /// `posix_spawn` returns only after the child has called `exec` (glibc spawns with
    /// `CLONE_VFORK`), which on a loaded machine takes from milliseconds to much longer, and the
    /// spawning thread waits in the kernel meanwhile; started from a thread of the cooperative
    /// pool, the children of one run held those threads for 2.7 of the first 10 seconds
    /// (`sched_switch` profile). `scripts/check-test-blocking` refuses the initializer in test
    /// code.
    /// - Throws: ``Failure`` when the executable is missing or `posix_spawn` fails.
    public static func start(
        _ executable: String,
        arguments: [String],
        environment: [String: String]? = nil,
        directory: URL? = nil,
        standardInput: Int32? = nil,
        standardOutput: Int32? = nil,
        standardError: Int32? = nil
    ) async throws -> SpawnedProcess {
        try await OwnThread.run {
            try SpawnedProcess(executable, arguments: arguments, environment: environment, directory: directory,
                               standardInput: standardInput, standardOutput: standardOutput, standardError: standardError)
        }
    }

    /// Whether the child has not ended yet (as far as its reaper has seen).
    public var isRunning: Bool {
        state.withLock { $0.termination == nil }
    }

    /// How the child ended, once it has.
    public var termination: Termination? {
        state.withLock { $0.termination }
    }

    /// Sends `signal` to the child (nothing once it has been reaped: its pid may be reused).
    public func send(_ signal: Int32) {
        state.withLock { state in
            if state.termination == nil { kill(processIdentifier, signal) }
        }
    }

    /// Suspends until the child has ended; how it ended.
    public func wait() async -> Termination {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> Termination? in
                if let termination = state.termination { return termination }
                state.waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// A pipe whose two descriptors are closed on exec (the child gets its end through
    /// `dup2`, which clears that flag on the copy; the child closes every other descriptor
    /// anyway, so the moment between `pipe` and `fcntl` does not matter).
    public static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw Failure(description: "pipe failed: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Reads `descriptor` until end of file (retrying `EINTR`) and closes it. Blocks: call it on
    /// a thread of its own (``OwnThread``).
    public static func readToEnd(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(descriptor)
        return data
    }

    /// Reads what `descriptor` has (at least one byte, waiting for it), retrying `EINTR`;
    /// empty at end of file or on an error. Blocks: call it on a thread of its own.
    public static func readSome(_ descriptor: Int32) -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { return Data(buffer[0..<count]) }
            if count < 0 && errno == EINTR { continue }
            return Data()
        }
    }

    /// Writes all of `data` to `descriptor` (retrying `EINTR`), then closes it.
    public static func writeAll(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        close(descriptor)
    }

    // glibc's posix_spawn_file_actions_addclosefrom_np (2.34) and _addchdir_np (2.29), looked
    // up at run time: the Glibc module does not import them (_GNU_SOURCE).
    private typealias FileAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChdirAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addCloseFrom: FileAction? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: FileAction.self) }
    private static let addChdir: ChdirAction? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: ChdirAction.self) }
}
