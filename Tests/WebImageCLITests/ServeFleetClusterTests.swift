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
/// The order is ``ServeFleetTests``'s: the first request for each source (30 at once, on server
/// `i % 3`) completes before any other request for that source starts, and the server stores
/// the original in Redis before it answers; the 270 others (9 other sizes per source) go to
/// the other servers first, 8 at a time, and find the original in the cluster.
@Suite struct ServeFleetClusterTests {
    let workspace = Workspace()

    @Test(.enabled(if: RedisClusterProcess.isAvailable, "redis-server or redis-cli is not installed (apt-get install redis-server redis-tools): the cluster fleet test is skipped"))
    func threeServersOnAClusterFetchEachSourceOnce() async throws {
        WebImageCLI.registerLaunchComponents()
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        var routes: [String: LoopbackHTTPServer.Route] = [:]
        for index in 0..<30 {
            routes["/s\(index).jpg"] = .data(try Fixtures.jpeg(width: 60 + index, height: 40), contentType: "image/jpeg")
        }
        let origin = try LoopbackHTTPServer(routes: routes)
        let seeds = cluster.ports.map { "127.0.0.1:\($0)" }.joined(separator: ",")
        var servers: [ServeProcess] = []
        for index in 0..<3 {
            servers.append(try await ServeProcess.start([
                "--allow-unsigned", "--allow-private-sources", "--redis-cluster", seeds,
                "--cache-dir", workspace.path("cache-\(index)"), "--access-log", "off",
            ], home: workspace.home))
        }
        let fleet = servers
        func path(source: Int, width: Int) -> String {
            "/unsafe/fit-in/\(width)x\(width)/" + origin.url(for: "/s\(source).jpg").absoluteString
        }

        // 30 first requests, one per source, at once.
        let firstStatuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for source in 0..<30 {
                group.addTask { try await ServeClient.get(fleet[source % 3].url(path(source: source, width: 20))).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(firstStatuses.allSatisfy { $0 == 200 }, "\(firstStatuses)")

        // 270 more: 9 other sizes per source, on the other servers first, 8 in flight at once.
        let rest = (0..<270).map { request in
            (source: request % 30, server: (request % 30 + 1 + request / 30) % 3, width: 21 + request / 30)
        }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            var pending = rest[...]
            var statuses: [Int] = []
            func next() {
                guard let request = pending.popFirst() else { return }
                group.addTask { try await ServeClient.get(fleet[request.server].url(path(source: request.source, width: request.width))).status }
            }
            for _ in 0..<8 { next() }
            for try await status in group {
                statuses.append(status)
                next()
            }
            return statuses
        }
        #expect(statuses.count == 270)
        #expect(statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses) { $0 }.mapValues(\.count))")

        let fetches = (0..<30).map { origin.statistics(for: "/s\($0).jpg").requestCount }
        #expect(fetches.reduce(0, +) == 30, "the origin saw \(fetches)")
        #expect(fetches.allSatisfy { $0 == 1 })

        // The entries (30 originals, and results) are spread over the three masters.
        var keysPerMaster: [Int] = []
        for port in cluster.ports {
            keysPerMaster.append(Int(try await cluster.raw(port: port, ["DBSIZE"]).first ?? "") ?? -1)
        }
        #expect(keysPerMaster.allSatisfy { $0 > 0 }, "keys per master: \(keysPerMaster)")
        #expect(keysPerMaster.reduce(0, +) >= 30, "keys per master: \(keysPerMaster)")
        for server in fleet {
            server.send(SIGTERM)
            #expect(await server.waitForExit() == 0, "\(server.errorText)")
            #expect(!server.errorText.contains("RedisImageCache"), "no Redis failure is logged: \(server.errorText)")
        }
    }
}
