public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command-line tool run to its end for a test (a reference encoder, `openssl`, `gzip`, the
/// `webimage` executable), with its standard output and error collected.
///
/// The tool is started with ``SpawnedProcess`` (not Foundation's `Process`, which can crash
/// the test process on Linux), and its pipes are read and its exit waited for on threads of
/// their own (``OwnThread``), never on a thread of Swift's cooperative pool, so a slow tool (an
/// x265 encode takes seconds) does not stall the other tests of a parallel run.
public struct ChildProcess: Sendable {
    /// What a tool printed and how it ended.
    public struct Outcome: Sendable {
        /// The exit status (the signal number when ``signaled`` is `true`).
        public let status: Int32
        /// Whether the tool was ended by a signal.
        public let signaled: Bool
        /// Everything it wrote to standard output.
        public let output: Data
        /// Everything it wrote to standard error (empty when it was merged into ``output``).
        public let errors: Data

        /// Standard output as UTF-8 text.
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
        /// Whether the tool exited with status 0.
        public var succeeded: Bool { !signaled && status == 0 }
    }

    /// A tool that exited with a non-zero status.
    public struct Failure: Error, CustomStringConvertible {
        /// The command line and what the tool said.
        public let description: String
    }

    /// The full path of `name` on the `PATH`, or `nil` when it is not installed.
    public static func path(of name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for folder in folders {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `tool` (a name on the `PATH` or a path) with `arguments` and waits for it to end.
    /// - Parameters:
    ///   - tool: A name on the `PATH`, or a path.
    ///   - arguments: The arguments after the program name.
    ///   - folder: Its working directory (default: the test's).
    ///   - environment: Its whole environment (default: the test's).
    ///   - input: Bytes for its standard input (default: none, `/dev/null`).
    ///   - mergingErrors: Whether standard error goes into ``Outcome/output`` too.
    /// - Throws: ``Failure`` when the tool is not installed, or what `Process.run()` throws.
    public static func run(
        _ tool: String,
        _ arguments: [String],
        in folder: URL? = nil,
        environment: [String: String]? = nil,
        input: Data? = nil,
        mergingErrors: Bool = false
    ) async throws -> Outcome {
        guard let executable = path(of: tool) else { throw Failure(description: "\(tool) is not installed") }
        let output = try SpawnedProcess.pipe()
        let errors = mergingErrors ? output : try SpawnedProcess.pipe()
        let inputPipe = try input.map { _ in try SpawnedProcess.pipe() }
        let child: SpawnedProcess
        do {
            child = try await SpawnedProcess.start(executable, arguments: arguments, environment: environment, directory: folder,
                                                   standardInput: inputPipe?.read, standardOutput: output.write, standardError: errors.write)
        } catch {
            for fd in Set([output.read, output.write, errors.read, errors.write] + (inputPipe.map { [$0.read, $0.write] } ?? [])) { close(fd) }
            throw error
        }
        // The parent keeps only its ends: the readers then see end of file once the child is gone.
        close(output.write)
        if !mergingErrors { close(errors.write) }
        if let inputPipe { close(inputPipe.read) }
        async let written: Void = OwnThread.run {
            guard let inputPipe, let input else { return }
            SpawnedProcess.writeAll(input, to: inputPipe.write)
        }
        async let printed = OwnThread.run { SpawnedProcess.readToEnd(output.read) }
        async let complained = mergingErrors ? Data() : OwnThread.run { SpawnedProcess.readToEnd(errors.read) }
        let (_, outputData, errorData) = await (written, printed, complained)
        let termination = await child.wait()
        return Outcome(status: termination.status, signaled: termination != .exited(termination.status), output: outputData, errors: errorData)
    }

    /// Runs `tool` like ``run(_:_:in:environment:input:mergingErrors:)`` and returns its
    /// standard output.
    /// - Throws: ``Failure`` (with the command line and what the tool wrote to standard error)
    ///   when it is missing or does not exit with status 0.
    @discardableResult
    public static func output(
        of tool: String,
        _ arguments: [String],
        in folder: URL? = nil,
        environment: [String: String]? = nil,
        input: Data? = nil
    ) async throws -> Data {
        let outcome = try await run(tool, arguments, in: folder, environment: environment, input: input)
        guard outcome.succeeded else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(outcome.signaled ? "on signal " : "")\(outcome.status): \(outcome.errorText.suffix(800))")
        }
        return outcome.output
    }
}
