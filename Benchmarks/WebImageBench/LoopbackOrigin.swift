import Foundation
import SwiftWebImage
import WebImageLoopbackServer
#if canImport(Glibc)
import Glibc
#endif

/// The origin server of the download cases, in a child process of its own: a
/// ``LoopbackHTTPServer`` run by this executable in its `--loopback-origin` mode.
///
/// Why a child: each client's CPU time is then its own process's (`getrusage`), with nothing
/// subtracted. With the server inside the benchmark process, ours was this process's CPU time
/// minus the server threads' own clocks, and what those clocks miss (the accept thread, thread
/// start-up, kernel work outside the serving threads) was charged to ours and not to curl's.
///
/// Protocol, one line each way: the child prints `port N` once it listens; `cpu` on its
/// standard input answers `cpu MS` (the child's user + system CPU time so far, in
/// milliseconds); end of input stops it.
final class LoopbackOrigin {
    /// The port the child listens on, on 127.0.0.1.
    let port: Int
    private let process: Process
    private let commands: FileHandle
    private let replies: Int32

    /// Starts the child and routes `count` paths `<prefix>/<n>`, each serving the same body of
    /// `size` bytes (byte `i` is `i * pattern`).
    init(count: Int, bodiesOf size: Int, pattern: Int, under prefix: String) throws {
        let input = Pipe()
        let output = Pipe()
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--loopback-origin", prefix, "\(count)", "\(size)", "\(pattern)"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        self.process = process
        self.commands = input.fileHandleForWriting
        self.replies = output.fileHandleForReading.fileDescriptor
        guard let line = Self.readLine(replies), line.hasPrefix("port "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw WebImageError(.invalidArgument, "the loopback origin child did not report its port")
        }
        self.port = port
    }

    deinit {
        stop()
    }

    /// The URLs the child serves, in order.
    func urls(count: Int, under prefix: String) -> [URL] {
        (0..<count).map { URL(string: "http://127.0.0.1:\(port)\(prefix)/\($0)")! }
    }

    /// The child's CPU time so far (user + system), in milliseconds.
    func cpuMilliseconds() throws -> Double {
        try commands.write(contentsOf: Data("cpu\n".utf8))
        guard let line = Self.readLine(replies), line.hasPrefix("cpu "), let value = Double(line.dropFirst(4)) else {
            throw WebImageError(.invalidArgument, "the loopback origin child did not report its CPU time")
        }
        return value
    }

    /// Ends the child's input and waits for it to exit. Idempotent.
    func stop() {
        try? commands.close()
        if process.isRunning { process.waitUntilExit() }
    }

    /// One line from `descriptor`, without its newline; `nil` at the end of input.
    private static func readLine(_ descriptor: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }

    /// The child's side (`webimage-bench --loopback-origin PREFIX COUNT SIZE PATTERN`): serves
    /// until its standard input ends, then exits.
    static func serve(_ arguments: [String]) -> Never {
        guard arguments.count == 4, let count = Int(arguments[1]), let size = Int(arguments[2]), let pattern = Int(arguments[3]),
              count > 0, size > 0 else {
            FileHandle.standardError.write(Data("webimage-bench: usage: --loopback-origin PREFIX COUNT SIZE PATTERN\n".utf8))
            exit(2)
        }
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer()
        } catch {
            FileHandle.standardError.write(Data("webimage-bench: the loopback origin could not listen: \(error)\n".utf8))
            exit(1)
        }
        let body = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* pattern) })
        for index in 0..<count { server.route("\(arguments[0])/\(index)", .data(body)) }
        Self.reply("port \(server.port)")
        while let command = Swift.readLine() {
            if command == "cpu" { Self.reply("cpu \(DownloadCase.cpuMilliseconds(RUSAGE_SELF))") }
        }
        server.stop()
        exit(0)
    }

    private static func reply(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
