import Foundation
import Testing
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit
#if canImport(Glibc)
import Glibc
#endif

/// A fleet on a Redis Cluster: three `webimage serve` processes with `--redis-cluster` on a
/// cluster of three masters, 300 requests for 30 sources spread over them; the origin sees each
/// source once, and the cached entries are on every master.
///
/// The requests and their order are ``ServeFleetWorkload``'s.
@Suite struct ServeFleetClusterTests {
    let workspace = Workspace()

    @Test(.enabled(if: RedisClusterProcess.isAvailable, "redis-server or redis-cli is not installed (apt-get install redis-server redis-tools): the cluster fleet test is skipped"))
    func threeServersOnAClusterFetchEachSourceOnce() async throws {
        WebImageCLI.registerLaunchComponents()
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let workload = try ServeFleetWorkload()
        let seeds = cluster.ports.map { "127.0.0.1:\($0)" }.joined(separator: ",")
        var servers: [ServeProcess] = []
        for index in 0..<3 {
            servers.append(try await ServeProcess.start([
                "--allow-unsigned", "--allow-private-sources", "--redis-cluster", seeds,
                "--cache-dir", workspace.path("cache-\(index)"), "--access-log", "off",
            ], home: workspace.home))
        }
        try await workload.run(on: servers)

        // The entries (30 originals, and results) are spread over the three masters.
        var keysPerMaster: [Int] = []
        for port in cluster.ports {
            keysPerMaster.append(Int(try await cluster.raw(port: port, ["DBSIZE"]).first ?? "") ?? -1)
        }
        #expect(keysPerMaster.allSatisfy { $0 > 0 }, "keys per master: \(keysPerMaster)")
        #expect(keysPerMaster.reduce(0, +) >= 30, "keys per master: \(keysPerMaster)")
        for server in servers {
            server.send(SIGTERM)
            #expect(await server.waitForExit() == 0, "\(server.errorText)")
            #expect(!server.errorText.contains("RedisImageCache"), "no Redis failure is logged: \(server.errorText)")
        }
    }
}
