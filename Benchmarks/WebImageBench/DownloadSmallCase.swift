import Foundation
import SwiftWebImage
#if canImport(Glibc)
import Glibc
#endif

/// 2,000 downloads of 20 KB from a loopback server, 16 at a time: `Downloader` (with
/// `avoidDecodeImage`) vs `curl --parallel --parallel-max 16` on the same URLs. Many small
/// bodies: the per-download cost (scheduling, handle set-up, delivery) rather than the bytes.
/// The server runs in a child process and CPU per download is each client's own, as in
/// ``DownloadCase``.
struct DownloadSmallCase {
    let runner: BenchmarkRunner
    static let count = 2_000
    static let size = 20_000
    static let parallel = 16

    func run() async throws -> PeerCases.Result {
        let origin = try LoopbackOrigin(count: Self.count, bodiesOf: Self.size, pattern: 17, under: "/small")
        defer { origin.stop() }
        let urls = origin.urls(count: Self.count, under: "/small")
        var configuration = DownloaderConfiguration()
        configuration.maxConcurrentDownloads = Self.parallel
        configuration.revalidationCacheCapacity = 0
        let downloader = Downloader(configuration: configuration, coder: CodersManager())

        let (ours, oursCPU) = try await DownloadCase.measureDownloads(of: urls, with: downloader, origin: origin, expectedBytes: Self.count * Self.size, runner: runner)

        // The URLs go to curl in a config file: 2,000 of them are a long command line.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-curl-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: config) }
        try urls.map { "url = \"\($0.absoluteString)\"\noutput = \"/dev/null\"\n" }.joined().write(to: config, atomically: true, encoding: .utf8)
        let (peer, curlCPU) = try DownloadCase.measurePeer(origin: origin, runner: runner) { try Self.curl(config: config) }
        return PeerCases.Result(ours: ours, peer: ("curl --parallel --parallel-max 16", peer), extra: [
            "cpu_us_per_download": BenchmarkRunner.median(oursCPU.map(\.client)) * 1000 / Double(Self.count),
            "peer_cpu_us_per_download": BenchmarkRunner.median(curlCPU.map(\.client)) * 1000 / Double(Self.count),
            "server_cpu_us_per_download": BenchmarkRunner.median(oursCPU.map(\.server)) * 1000 / Double(Self.count),
            "peer_server_cpu_us_per_download": BenchmarkRunner.median(curlCPU.map(\.server)) * 1000 / Double(Self.count),
            "goal": 1.3,
        ])
    }

    /// Runs curl on the URLs of a config file, 16 at a time, discarding the bodies.
    static func curl(config: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "--silent", "--no-progress-meter", "--fail", "--parallel", "--parallel-max", "\(parallel)", "--config", config.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw WebImageError(.invalidDownloadResponse, "curl exited with status \(process.terminationStatus)")
        }
    }
}
