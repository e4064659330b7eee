import Foundation
import SwiftWebImage

/// 200 downloads of 1 MB from a loopback server, 6 at a time: `Downloader` vs
/// `curl --parallel --parallel-max 6` on the same URLs. Reports wall time and CPU time.
struct DownloadCase {
    let runner: BenchmarkRunner

    func run() async throws -> PeerCases.Result {
        throw WebImageError(.invalidArgument, "download: the loopback server is not wired into the benchmark yet")
    }
}
