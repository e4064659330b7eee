import Foundation
import Testing
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What one run of the `webimage` executable did.
struct CLIResult: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Standard output's lines, without the empty one after the last newline.
    var lines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// Standard error's lines.
    var errorLines: [String] {
        stderr.split(separator: "\n").map(String.init)
    }
}

/// Runs the built `webimage` executable as a subprocess: with pipes (standard output is not a
/// terminal), or with standard output on a pseudo-terminal (it is one).
///
/// The executable is found next to the running test binary (`/proc/self/exe`), where SwiftPM
/// builds it: this test target depends on the `webimage` target so that it is built with the
/// tests. Every run gets `HOME` and `XDG_CACHE_HOME` inside `home`, so that no test ever
/// touches the user's real cache.
enum CLIRunner {
    static func executableURL() throws -> URL {
        let executable = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("webimage")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        Issue.record("webimage was not found next to \(executable); build it with the tests (swift build --build-tests)")
        throw CancellationError()
    }

    /// The test process's environment with `HOME` and `XDG_CACHE_HOME` inside `home`.
    static func environment(home: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        return environment
    }

    /// Runs `webimage arguments...` with its output on pipes (through ``ChildProcess``: spawned
    /// without Foundation's `Process`, read and waited for on threads of their own).
    static func run(_ arguments: [String], home: URL, in directory: URL? = nil) async throws -> CLIResult {
        let outcome = try await ChildProcess.run(try executableURL().path, arguments, in: directory, environment: environment(home: home))
        return CLIResult(status: outcome.status, stdout: outcome.outputText, stderr: outcome.errorText)
    }

    /// Runs `webimage arguments...` with standard output on a pseudo-terminal (and standard error
    /// on a pipe).
    static func runInTerminal(_ arguments: [String], home: URL, in directory: URL? = nil) async throws -> CLIResult {
        let pty = try #require(PseudoTerminal.functions, "posix_openpt and friends are not in this libc")
        let master = pty.open(O_RDWR | O_NOCTTY)
        #expect(master >= 0, "posix_openpt failed: errno \(errno)")
        guard master >= 0 else { throw CancellationError() }
        defer { close(master) }
        #expect(pty.grant(master) == 0 && pty.unlock(master) == 0)
        var nameBuffer = [CChar](repeating: 0, count: 128)
        #expect(pty.name(master, &nameBuffer, nameBuffer.count) == 0)
        let name = String(decoding: nameBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(name, O_RDWR | O_NOCTTY)
        #expect(slave >= 0, "cannot open \(name)")
        guard slave >= 0 else { throw CancellationError() }
        let errors = try SpawnedProcess.pipe()
        let child: SpawnedProcess
        do {
            child = try await SpawnedProcess.start(try executableURL().path, arguments: arguments, environment: environment(home: home), directory: directory,
                                                   standardOutput: slave, standardError: errors.write)
        } catch {
            close(slave)
            close(errors.read)
            close(errors.write)
            throw error
        }
        close(slave)  // the child holds its own copy; the master reads EIO once it is gone
        close(errors.write)
        async let out = readTerminal(master)
        async let err = OwnThread.run { SpawnedProcess.readToEnd(errors.read) }
        let (stdout, stderr) = await (out, err)
        let status = await child.wait().status
        return CLIResult(status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    private static func readTerminal(_ master: Int32) async -> Data {
        await OwnThread.run {
            var data = Data()
            while true {
                let chunk = SpawnedProcess.readSome(master)  // blocking: own thread (EIO once every slave descriptor is closed)
                if chunk.isEmpty { break }
                data.append(chunk)
            }
            return data
        }
    }
}

/// `posix_openpt`, `grantpt`, `unlockpt` and `ptsname_r`, looked up with `dlsym`: the Glibc
/// module does not import them (they need `_XOPEN_SOURCE`).
struct PseudoTerminal: @unchecked Sendable {
    // @unchecked Sendable: immutable C function pointers, set once.
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    let open: Open
    let grant: Open
    let unlock: Open
    let name: Name

    static let functions: PseudoTerminal? = {
        let handle = dlopen(nil, RTLD_NOW)
        guard let open = dlsym(handle, "posix_openpt"), let grant = dlsym(handle, "grantpt"),
              let unlock = dlsym(handle, "unlockpt"), let name = dlsym(handle, "ptsname_r") else { return nil }
        return PseudoTerminal(
            open: unsafeBitCast(open, to: Open.self), grant: unsafeBitCast(grant, to: Open.self),
            unlock: unsafeBitCast(unlock, to: Open.self), name: unsafeBitCast(name, to: Name.self)
        )
    }()
}
