import Foundation
import SwiftWebImage
#if canImport(Glibc)
import Glibc
#endif

/// 200 downloads of 1 MB from a loopback server, 6 at a time: `Downloader` (with
/// `avoidDecodeImage`: the bytes are not an image) vs `curl --parallel --parallel-max 6` on the
/// same URLs.
///
/// Besides wall time it reports CPU time per MB, each client's own: ours is this process's CPU
/// time during the run (`getrusage(RUSAGE_SELF)`), curl's its process's (`RUSAGE_CHILDREN`
/// around the run). The warm-up run is left out of both medians.
///
/// The origin server runs in a child process of its own for both clients
/// (``LoopbackOrigin``), so that nothing has to be subtracted from our process's CPU time. It
/// used to run in this process, with the time its connection threads spent serving
/// (`LoopbackHTTPServer.servingCPUTime`) subtracted from ours: that left out what the
/// threads' clocks miss (the accept thread, thread start-up, kernel work done outside the
/// serving threads), so it was charged to us and never to curl. The server's own CPU time per
/// MB is reported for each client (`server_cpu_*`, the child's CPU time during the run): the
/// same work whichever client asks, charged to neither. What the peer does is unchanged: the
/// same curl command on the same URLs.
struct DownloadCase {
    let runner: BenchmarkRunner
    static let count = 200
    static let size = 1 << 20

    func run() async throws -> PeerCases.Result {
        let origin = try LoopbackOrigin(count: Self.count, bodiesOf: Self.size, pattern: 31, under: "/blob")
        defer { origin.stop() }
        let urls = origin.urls(count: Self.count, under: "/blob")
        var configuration = DownloaderConfiguration()
        configuration.maxConcurrentDownloads = 6
        configuration.urlCache = nil
        let downloader = Downloader(configuration: configuration, coder: CodersManager())

        let (ours, oursCPU) = try await Self.measureDownloads(of: urls, with: downloader, origin: origin, expectedBytes: Self.count * Self.size, runner: runner)
        let (peer, curlCPU) = try Self.measurePeer(origin: origin, runner: runner) { try Self.curl(urls) }
        let megabytes = Double(Self.count * Self.size) / 1_048_576
        return PeerCases.Result(ours: ours, peer: ("curl --parallel --parallel-max 6", peer), extra: [
            "cpu_ms_per_mb": BenchmarkRunner.median(oursCPU.map(\.client)) / megabytes,
            "peer_cpu_ms_per_mb": BenchmarkRunner.median(curlCPU.map(\.client)) / megabytes,
            "server_cpu_ms_per_mb": BenchmarkRunner.median(oursCPU.map(\.server)) / megabytes,
            "peer_server_cpu_ms_per_mb": BenchmarkRunner.median(curlCPU.map(\.server)) / megabytes,
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
        ProcessUsage.now(who).cpuMilliseconds
    }

    /// CPU time of one run, in milliseconds: the client's own and the origin child's.
    typealias RunCPU = (client: Double, server: Double)

    /// Downloads every URL at once through `downloader` (with `avoidDecodeImage`; its own
    /// concurrency limit applies), timed by `runner`; also returns the CPU time of each timed
    /// iteration (the warm-up left out): this process's and `origin`'s. Throws when the bytes
    /// received are not `expectedBytes`.
    static func measureDownloads(of urls: [URL], with downloader: Downloader, origin: LoopbackOrigin, expectedBytes: Int, runner: BenchmarkRunner) async throws -> (BenchmarkRunner.Measurement, [RunCPU]) {
        var cpu: [RunCPU] = []
        let measurement = try await runner.measureAsync {
            let served = try origin.cpuMilliseconds()
            let before = cpuMilliseconds(RUSAGE_SELF)
            let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
                for url in urls {
                    group.addTask { try await downloader.requestImage(with: url, options: [.avoidDecodeImage], context: WebImageContext(), progress: nil).data?.count ?? 0 }
                }
                return try await group.reduce(0, +)
            }
            let client = cpuMilliseconds(RUSAGE_SELF) - before
            cpu.append((client, try origin.cpuMilliseconds() - served))
            guard bytes == expectedBytes else { throw WebImageError(.badImageData, "downloaded \(bytes) bytes, expected \(expectedBytes)") }
            return bytes
        }
        return (measurement, Array(cpu.dropFirst()))
    }

    /// Runs the peer (a child process) through `runner`; also returns the CPU time of each timed
    /// iteration (the warm-up left out): the peer's (children's) and `origin`'s.
    static func measurePeer(origin: LoopbackOrigin, runner: BenchmarkRunner, _ peer: () throws -> Void) throws -> (BenchmarkRunner.Measurement, [RunCPU]) {
        var cpu: [RunCPU] = []
        let measurement = try runner.measure {
            let served = try origin.cpuMilliseconds()
            let children = cpuMilliseconds(RUSAGE_CHILDREN)
            try peer()
            let client = cpuMilliseconds(RUSAGE_CHILDREN) - children
            cpu.append((client, try origin.cpuMilliseconds() - served))
            return cpu.count
        }
        return (measurement, Array(cpu.dropFirst()))
    }
}
