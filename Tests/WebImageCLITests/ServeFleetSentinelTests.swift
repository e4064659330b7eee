import Foundation
import Testing
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit
#if canImport(Glibc)
import Glibc
#endif

/// A fleet on a Sentinel-managed Redis: three `webimage serve` processes with `--redis-sentinel`
/// and `--redis-master` share one cache, the master is killed under load, and they share it
/// again through the promoted replica; no request fails meanwhile.
///
/// The origin counts make the sharing exact, as in ``ServeFleetTests``: the first request for
/// each source completes on one server before the other two ask for other sizes of it, so each
/// of them finds the original in Redis.
@Suite(.enabled(if: RedisSentinelProcess.isAvailable, "redis-sentinel is not installed (apt-get install redis-sentinel redis-server): the Sentinel fleet test is skipped"))
struct ServeFleetSentinelTests {
    let workspace = Workspace()

    @Test func threeServersFollowAFailoverAndKeepSharingTheCache() async throws {
        WebImageCLI.registerLaunchComponents()
        let group = try await RedisSentinelGroup.start()
        defer { group.stop() }
        var routes: [String: LoopbackHTTPServer.Route] = [:]
        for index in 0..<12 {
            routes["/before\(index).jpg"] = .data(try Fixtures.jpeg(width: 60 + index, height: 40), contentType: "image/jpeg")
            routes["/after\(index).jpg"] = .data(try Fixtures.jpeg(width: 40, height: 60 + index), contentType: "image/jpeg")
        }
        routes["/load.jpg"] = .data(try Fixtures.jpeg(width: 64, height: 48), contentType: "image/jpeg")
        let origin = try LoopbackHTTPServer(routes: routes)
        defer { origin.stop() }
        var servers: [ServeProcess] = []
        for index in 0..<3 {
            servers.append(try await ServeProcess.start([
                "--allow-unsigned", "--allow-private-sources",
                "--redis-sentinel", "127.0.0.1:\(group.sentinel.port)", "--redis-master", group.masterName,
                "--cache-dir", workspace.path("cache-\(index)"), "--access-log", "off",
            ], home: workspace.home))
        }
        let fleet = servers
        func path(_ source: String, width: Int) -> String {
            "/unsafe/fit-in/\(width)x\(width)/" + origin.url(for: "/\(source).jpg").absoluteString
        }
        /// Each source first on server `i % 3` (all at once), then at two other sizes on the
        /// other two servers: the origin sees each source once.
        func shareRound(_ prefix: String) async throws -> [Int] {
            let first = try await withThrowingTaskGroup(of: Int.self) { tasks in
                for source in 0..<12 {
                    tasks.addTask { try await ServeClient.get(fleet[source % 3].url(path("\(prefix)\(source)", width: 20))).status }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            let rest = try await withThrowingTaskGroup(of: Int.self) { tasks in
                for source in 0..<12 {
                    for step in 1...2 {
                        tasks.addTask { try await ServeClient.get(fleet[(source + step) % 3].url(path("\(prefix)\(source)", width: 20 + step))).status }
                    }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            return first + rest
        }

        let before = try await shareRound("before")
        #expect(before.count == 36 && before.allSatisfy { $0 == 200 }, "\(before)")
        let fetchedBefore = (0..<12).map { origin.statistics(for: "/before\($0).jpg").requestCount }
        #expect(fetchedBefore.allSatisfy { $0 == 1 }, "the origin saw \(fetchedBefore)")
        // Every server found the master and subscribed to +switch-master.
        try await group.sentinel.waitUntilSubscribers(3)

        // The master dies under load: every request still gets its image.
        let stop = Locked(false)
        let load = (0..<3).map { index in
            Task { () -> [Int] in
                var statuses: [Int] = []
                var width = 16
                while !stop.withLock({ $0 }) {
                    width = width == 400 ? 16 : width + 1
                    statuses.append((try? await ServeClient.get(fleet[index].url(path("load", width: width + index))).status) ?? -1)
                }
                return statuses
            }
        }
        await group.master.kill()
        let killedAt = ContinuousClock.now
        var switched: [Duration] = []
        for server in fleet {
            let limit = ContinuousClock.now + .seconds(60)
            while try await ServeFleetWorkload.metric("webimage_serve_redis_failovers_total", of: server) ?? 0 < 1 {
                try #require(ContinuousClock.now < limit, "\(server.baseURL) did not follow the failover; the Sentinel's log:\n\(group.sentinel.log)")
                try await Task.sleep(for: .milliseconds(10))
            }
            switched.append(ContinuousClock.now - killedAt)
            let text = try await ServeFleetWorkload.metrics(of: server)
            #expect(text.contains("webimage_serve_redis_up{endpoint=\"127.0.0.1:\(group.replica.port)\",role=\"master\"} 1"), "\(text)")
        }
        print("ServeFleetSentinelTests: the servers used the new master \(switched) after the kill")
        stop.withLock { $0 = true }
        var statuses: [Int] = []
        for task in load { statuses += await task.value }
        #expect(!statuses.isEmpty && statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses) { $0 }.mapValues(\.count))")

        // Shared again, through the promoted replica.
        let keysBefore = await group.replica.info("keyspace")["db0"] ?? ""
        let after = try await shareRound("after")
        #expect(after.count == 36 && after.allSatisfy { $0 == 200 }, "\(after)")
        let fetchedAfter = (0..<12).map { origin.statistics(for: "/after\($0).jpg").requestCount }
        #expect(fetchedAfter.allSatisfy { $0 == 1 }, "the origin saw \(fetchedAfter)")
        #expect(await group.replica.info("keyspace")["db0"] != keysBefore, "the new entries are on the promoted replica")
        #expect(await group.replica.role() == "master")

        for server in fleet {
            server.send(SIGTERM)
            #expect(await server.waitForExit() == 0, "\(server.errorText)")
        }
    }
}
