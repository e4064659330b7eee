import Foundation
import SwiftWebImage
import WebImageLoopbackServer
#if canImport(Glibc)
import Glibc
#endif

/// 200 downloads of 1 MB from a loopback server in this process, 6 at a time: `Downloader`
/// (with `avoidDecodeImage`: the bytes are not an image) vs `curl --parallel --parallel-max 6`
/// on the same URLs.
///
/// Besides wall time it reports CPU time per MB. Ours is this process's CPU time during the
/// run minus the CPU time the server's connection threads spent serving it
/// (``LoopbackHTTPServer/servingCPUTime``, measured in the same run); curl's is its own
/// (children's) CPU time. The server's own cost per MB is reported too (`server_cpu_*`): it is
/// the same work for both clients, and neither side is charged for it.
struct DownloadCase {
    let runner: BenchmarkRunner
    static let count = 200
    static let size = 1 << 20

    func run() async throws -> PeerCases.Result {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let urls = Self.serve(count: Self.count, bodiesOf: Self.size, pattern: 31, under: "/blob", on: server)
        var configuration = DownloaderConfiguration()
        configuration.maxConcurrentDownloads = 6
        configuration.urlCache = nil
        let downloader = Downloader(configuration: configuration, coder: CodersManager())

        let (ours, oursCPU) = try await Self.measureDownloads(of: urls, with: downloader, server: server, expectedBytes: Self.count * Self.size, runner: runner)

        var curlCPU: [Double] = []
        var serverCPU: [Double] = []
        let peer = try runner.measure {
            let children = Self.cpuMilliseconds(RUSAGE_CHILDREN)
            let serving = server.servingCPUTime
            try Self.curl(urls)
            curlCPU.append(Self.cpuMilliseconds(RUSAGE_CHILDREN) - children)
            serverCPU.append(Self.milliseconds(server.servingCPUTime - serving))
            return curlCPU.count
        }
        let megabytes = Double(Self.count * Self.size) / 1_048_576
        return PeerCases.Result(ours: ours, peer: ("curl --parallel --parallel-max 6", peer), extra: [
            "cpu_ms_per_mb": BenchmarkRunner.median(oursCPU.map(\.client)) / megabytes,
            "peer_cpu_ms_per_mb": BenchmarkRunner.median(curlCPU) / megabytes,
            "server_cpu_ms_per_mb": BenchmarkRunner.median(oursCPU.map(\.server)) / megabytes,
            "peer_server_cpu_ms_per_mb": BenchmarkRunner.median(serverCPU) / megabytes,
            // Issue 17: wall time at most 1.2x curl's (the table's goal), CPU per MB at most 1.5x.
            "goal": 1.2,
            "cpu_goal": 1.5,
        ])
    }

    /// Runs curl on every URL, 6 at a time, discarding the bodies.
    static func curl(_ urls: [URL]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "--silent", "--no-progress-meter", "--fail", "--parallel", "--parallel-max", "6"] + urls.flatMap { ["-o", "/dev/null", $0.absoluteString] }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw WebImageError(.invalidDownloadResponse, "curl exited with status \(process.terminationStatus)")
        }
    }

    /// User + system CPU time of `who` (RUSAGE_SELF or RUSAGE_CHILDREN), in milliseconds.
    static func cpuMilliseconds(_ who: __rusage_who) -> Double {
        cpuMilliseconds(who.rawValue)
    }

    static func cpuMilliseconds(_ who: Int32) -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(who), &usage)
        func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }

    /// Routes `count` URLs `<prefix>/<n>` on `server`, each serving the same deterministic body of
    /// `size` bytes (byte `i` is `i * pattern`), and returns them in order.
    static func serve(count: Int, bodiesOf size: Int, pattern: Int, under prefix: String, on server: LoopbackHTTPServer) -> [URL] {
        let body = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* pattern) })
        return (0..<count).map { index -> URL in
            server.route("\(prefix)/\(index)", .data(body))
            return server.url(for: "\(prefix)/\(index)")
        }
    }

    /// Milliseconds of a duration.
    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// Downloads every URL at once through `downloader` (with `avoidDecodeImage`; its own
    /// concurrency limit applies), timed by `runner`; also returns the CPU time of each
    /// iteration, in milliseconds: the client's (this process's, minus what `server` spent
    /// serving) and the server's. Throws when the bytes received are not `expectedBytes`.
    static func measureDownloads(of urls: [URL], with downloader: Downloader, server: LoopbackHTTPServer, expectedBytes: Int, runner: BenchmarkRunner) async throws -> (BenchmarkRunner.Measurement, [(client: Double, server: Double)]) {
        var cpu: [(client: Double, server: Double)] = []
        let measurement = try await runner.measureAsync {
            let before = cpuMilliseconds(RUSAGE_SELF)
            let serving = server.servingCPUTime
            let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
                for url in urls {
                    group.addTask { try await downloader.requestImage(with: url, options: [.avoidDecodeImage], context: WebImageContext(), progress: nil).data?.count ?? 0 }
                }
                return try await group.reduce(0, +)
            }
            let served = milliseconds(server.servingCPUTime - serving)
            cpu.append((cpuMilliseconds(RUSAGE_SELF) - before - served, served))
            guard bytes == expectedBytes else { throw WebImageError(.badImageData, "downloaded \(bytes) bytes, expected \(expectedBytes)") }
            return bytes
        }
        return (measurement, cpu)
    }
}
