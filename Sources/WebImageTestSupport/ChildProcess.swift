public import Foundation

/// A command-line tool run to its end for a test (a reference encoder, `openssl`, `gzip`, the
/// `webimage` executable), with its standard output and error collected.
///
/// The pipes are read and the exit is waited for on threads of their own (``OwnThread``), never
/// on a thread of Swift's cooperative pool, so a slow tool (an x265 encode takes seconds) does
/// not stall the other tests of a parallel run.
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = mergingErrors ? output : Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        try process.run()
        let outputHandle = output.fileHandleForReading
        let errorHandle = errors.fileHandleForReading
        async let written: Void = OwnThread.run {
            guard let inputPipe, let input else { return }
            try? inputPipe.fileHandleForWriting.write(contentsOf: input)
            try? inputPipe.fileHandleForWriting.close()
        }
        async let printed = OwnThread.run { outputHandle.readDataToEndOfFile() }
        async let complained = mergingErrors ? Data() : OwnThread.run { errorHandle.readDataToEndOfFile() }
        let (_, outputData, errorData) = await (written, printed, complained)
        let (status, signaled) = await OwnThread.run { () -> (Int32, Bool) in
            process.waitUntilExit()
            return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
        }
        return Outcome(status: status, signaled: signaled, output: outputData, errors: errorData)
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
