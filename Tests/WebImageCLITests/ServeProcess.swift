import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
#if canImport(Glibc)
import Glibc
#endif

/// A `webimage serve` child process for the tests: started with its output on pipes, ready once
/// it has printed its "listening on" line (no sleeps: the test waits on that line), stopped with
/// SIGTERM (or killed when the test forgets).
final class ServeProcess: Sendable {
    /// The base URL it listens on (`http://127.0.0.1:PORT`).
    let baseURL: URL
    private let process: SpawnedProcess
    private let output: LineCollector
    private let errors: LineCollector

    /// Starts `webimage serve arguments...` (with `--host 127.0.0.1 --port 0` added) and waits for
    /// its listening line.
    /// - Parameter environment: Variables added to the test's own.
    static func start(_ arguments: [String], home: URL, environment: [String: String] = [:]) async throws -> ServeProcess {
        // Timers long enough that a test's own pace never fires them (a full parallel run may
        // keep a test's task waiting for a pool thread for a minute): a test about a timeout
        // gives its own.
        var timers: [String] = []
        if !arguments.contains("--timeout") { timers += ["--timeout", "600"] }
        if !arguments.contains("--origin-timeout") { timers += ["--origin-timeout", "600"] }
        if !arguments.contains("--client-timeout") { timers += ["--client-timeout", "600"] }
        var variables = CLIRunner.environment(home: home).filter { !$0.key.hasPrefix("WEBIMAGE_SERVE_") }
        variables.merge(environment) { _, new in new }
        let outputPipe = try SpawnedProcess.pipe()
        let errorPipe = try SpawnedProcess.pipe()
        let process: SpawnedProcess
        do {
            process = try await SpawnedProcess.start(try CLIRunner.executableURL().path, arguments: ["serve", "--host", "127.0.0.1", "--port", "0"] + timers + arguments,
                                                     environment: variables, standardOutput: outputPipe.write, standardError: errorPipe.write)
        } catch {
            for fd in [outputPipe.read, outputPipe.write, errorPipe.read, errorPipe.write] { close(fd) }
            throw error
        }
        close(outputPipe.write)
        close(errorPipe.write)
        let output = LineCollector(outputPipe.read)
        let errors = LineCollector(errorPipe.read)
        let line = await output.waitForLine { $0.contains("listening on http://") }
        guard let line, let range = line.range(of: "http://"), let url = URL(string: String(line[range.lowerBound...])) else {
            let status = await process.wait().status
            Issue.record("webimage serve did not start (status \(status)): \(errors.text)")
            throw CancellationError()
        }
        return ServeProcess(baseURL: url, process: process, output: output, errors: errors)
    }

    private init(baseURL: URL, process: SpawnedProcess, output: LineCollector, errors: LineCollector) {
        self.baseURL = baseURL
        self.process = process
        self.output = output
        self.errors = errors
    }

    deinit {
        process.send(SIGKILL)
    }

    /// The child's process id (its `/proc/<pid>/stat` has the CPU time it used).
    var processIdentifier: pid_t { process.processIdentifier }

    /// The URL of `path` (which starts with `/`) on this server.
    func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path)!
    }

    /// Sends `signal` (SIGTERM by default).
    func send(_ signal: Int32 = SIGTERM) {
        process.send(signal)
    }

    /// Waits until the process has ended, and returns its exit status.
    func waitForExit() async -> Int32 {
        await process.wait().status
    }

    /// Waits for a line of standard error that contains `text` (`nil` when the stream ended first).
    func waitForErrorLine(containing text: String) async -> String? {
        await errors.waitForLine { $0.contains(text) }
    }

    /// What it wrote to standard error so far.
    var errorText: String { errors.text }
    /// What it wrote to standard output so far.
    var outputText: String { output.text }
}

/// Reads a pipe on a thread of its own (never a thread of Dispatch's global pool, which Swift's
/// tasks share), line by line, and lets tasks wait for a line that matches.
final class LineCollector: Sendable {
    private struct Waiter {
        let matches: @Sendable (String) -> Bool
        let continuation: CheckedContinuation<String?, Never>
    }

    private struct State {
        var lines: [String] = []
        var partial = Data()
        var ended = false
        var waiters: [Waiter] = []
    }

    private let state = Locked(State())

    /// Reads `descriptor` (and closes it at its end).
    init(_ descriptor: Int32) {
        Thread.detachNewThread { [self] in
            while true {
                let data = SpawnedProcess.readSome(descriptor)  // blocking: own thread
                if data.isEmpty { break }
                append(data)
            }
            close(descriptor)
            finish()
        }
    }

    /// Everything read so far.
    var text: String {
        state.withLock { state in
            (state.lines + [String(decoding: state.partial, as: UTF8.self)]).joined(separator: "\n")
        }
    }

    /// The first line (read so far or later) for which `matches` is true; `nil` when the stream ends first.
    func waitForLine(_ matches: @escaping @Sendable (String) -> Bool) async -> String? {
        await withCheckedContinuation { continuation in
            let found: String?? = state.withLock { state in
                if let line = state.lines.first(where: matches) { return .some(line) }
                if state.ended { return .some(nil) }
                state.waiters.append(Waiter(matches: matches, continuation: continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    private func append(_ data: Data) {
        let ready: [(CheckedContinuation<String?, Never>, String)] = state.withLock { state in
            state.partial.append(data)
            var newLines: [String] = []
            while let newline = state.partial.firstIndex(of: 0x0A) {
                newLines.append(String(decoding: state.partial[state.partial.startIndex..<newline], as: UTF8.self))
                state.partial = Data(state.partial[state.partial.index(after: newline)...])
            }
            state.lines += newLines
            var ready: [(CheckedContinuation<String?, Never>, String)] = []
            state.waiters.removeAll { waiter in
                guard let line = newLines.first(where: waiter.matches) else { return false }
                ready.append((waiter.continuation, line))
                return true
            }
            return ready
        }
        for (continuation, line) in ready { continuation.resume(returning: line) }
    }

    private func finish() {
        let waiters = state.withLock { state -> [Waiter] in
            state.ended = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }
}

/// A plain HTTP client for the serve tests: one connection per request (`Connection: close`),
/// no cache, no cookies, no redirects followed.
///
/// Not `URLSession`: on Linux its `data(for:)` waits in `DispatchQueue.sync` on the calling
/// thread, a thread of the cooperative pool (815 such waits, 3.7 s, in one full run with the
/// fleet tests' 300-request workloads, from a `sched_switch` profile). The connection's
/// blocking calls run on threads of their own (``RawHTTPConnection``).
enum ServeClient {
    /// One answer.
    struct Answer: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// A header's value (case-insensitive name).
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// `GET url` with `headers`.
    static func get(_ url: URL, headers: [String: String] = [:]) async throws -> Answer {
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let host = try #require(components.host).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let port = try #require(components.port)
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var request = "GET \(target) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let connection = try await RawHTTPConnection.open(port: port, host: host, sending: request)
        defer { connection.close() }
        let response = try await connection.readResponse()
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name] = value }
        return Answer(status: response.status, headers: fields, body: Data(response.body))
    }
}
