import Foundation
import Testing
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit
#if canImport(Glibc)
import Glibc
#endif

/// A fleet: three `webimage serve` processes on one `redis-server`, 300 requests for 30 sources
/// spread over them; the origin sees each source once.
///
/// The order makes the count exact: the first request for each source (30 of them, at once, on
/// server `i % 3`) completes before any other request for that source starts; the server stores
/// the original in Redis before it answers. Then 270 more requests (9 other sizes per source, so
/// each is a new transform that needs the original) go to the other servers first, 8 at a time:
/// each finds the original in Redis (or, later, in its own memory and disk).
@Suite struct ServeFleetTests {
    let workspace = Workspace()

    @Test(.enabled(if: RedisServerProcess.isAvailable, "redis-server is not installed (apt-get install redis-server): the fleet test is skipped"))
    func threeServersOnOneRedisFetchEachSourceOnce() async throws {
        WebImageCLI.registerLaunchComponents()
        let redis = try await RedisServerProcess.start()
        defer { redis.stop() }
        var routes: [String: LoopbackHTTPServer.Route] = [:]
        for index in 0..<30 {
            routes["/s\(index).jpg"] = .data(try Fixtures.jpeg(width: 60 + index, height: 40), contentType: "image/jpeg")
        }
        let origin = try LoopbackHTTPServer(routes: routes)
        var servers: [ServeProcess] = []
        for index in 0..<3 {
            servers.append(try await ServeProcess.start([
                "--allow-unsigned", "--allow-private-sources", "--redis", "redis://127.0.0.1:\(redis.port)",
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
        for server in fleet {
            server.send(SIGTERM)
            #expect(await server.waitForExit() == 0, "\(server.errorText)")
        }
    }

    @Test(.enabled(if: RedisServerProcess.isAvailable, "redis-server is not installed (apt-get install redis-server): the outage test is skipped"))
    func aRedisOutageOnlyCostsHitRate() async throws {
        WebImageCLI.registerLaunchComponents()
        let redis = try await RedisServerProcess.start()
        defer { redis.stop() }
        let origin = try LoopbackHTTPServer(routes: ["/a.jpg": .data(try Fixtures.jpeg(width: 64, height: 48), contentType: "image/jpeg")])
        let server = try await ServeProcess.start([
            "--allow-unsigned", "--allow-private-sources", "--no-cache", "--redis", "redis://127.0.0.1:\(redis.port)",
        ], home: workspace.home)
        func get(_ width: Int) async throws -> Int {
            try await ServeClient.get(server.url("/unsafe/fit-in/\(width)x\(width)/" + origin.url(for: "/a.jpg").absoluteString)).status
        }
        #expect(try await get(20) == 200)
        #expect(try await get(21) == 200)
        #expect(origin.statistics(for: "/a.jpg").requestCount == 1, "with Redis up, the original comes from Redis the second time")
        redis.kill()
        // Redis is down: every request still gets its image; the original is fetched again.
        #expect(try await get(22) == 200)
        #expect(try await get(23) == 200)
        #expect(origin.statistics(for: "/a.jpg").requestCount >= 2)
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(server.errorText.contains("RedisImageCache"), "the failures are logged: \(server.errorText)")
    }
}
