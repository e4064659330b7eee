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
/// spread over them (``ServeFleetWorkload``); the origin sees each source once.
@Suite struct ServeFleetTests {
    let workspace = Workspace()

    @Test(.enabled(if: RedisServerProcess.isAvailable, "redis-server is not installed (apt-get install redis-server): the fleet test is skipped"))
    func threeServersOnOneRedisFetchEachSourceOnce() async throws {
        WebImageCLI.registerLaunchComponents()
        let redis = try await RedisServerProcess.start()
        defer { redis.stop() }
        let workload = try ServeFleetWorkload()
        var servers: [ServeProcess] = []
        for index in 0..<3 {
            servers.append(try await ServeProcess.start([
                "--allow-unsigned", "--allow-private-sources", "--redis", "redis://127.0.0.1:\(redis.port)",
                "--cache-dir", workspace.path("cache-\(index)"), "--access-log", "off",
            ], home: workspace.home))
        }
        try await workload.run(on: servers)
        for server in servers {
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
        await redis.kill()
        // Redis is down: every request still gets its image; the original is fetched again.
        #expect(try await get(22) == 200)
        #expect(try await get(23) == 200)
        #expect(origin.statistics(for: "/a.jpg").requestCount >= 2)
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
        #expect(server.errorText.contains("RedisImageCache"), "the failures are logged: \(server.errorText)")
    }
}
