import Foundation
import Testing
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit
#if canImport(Glibc)
import Glibc
#endif

/// A fleet through Redis outages and data loss (issue 39): servers use a restarted Redis again
/// after one backoff step, and what a server got from Redis is on its own disk when Redis
/// has lost it.
@Suite(.enabled(if: RedisServerProcess.isAvailable, "redis-server is not installed (apt-get install redis-server): the fleet recovery tests are skipped"))
struct ServeFleetRedisRecoveryTests {
    let workspace = Workspace()

    @Test func aServerRestartedAfterRedisLostItsDataAnswersFromItsOwnDisk() async throws {
        WebImageCLI.registerLaunchComponents()
        let redis = try await RedisServerProcess.start()
        defer { redis.stop() }
        let origin = try LoopbackHTTPServer(routes: ["/a.jpg": .data(try Fixtures.jpeg(width: 80, height: 60), contentType: "image/jpeg")])
        defer { origin.stop() }
        func arguments(_ index: Int) -> [String] {
            ["--allow-unsigned", "--allow-private-sources", "--redis", "redis://127.0.0.1:\(redis.port)",
             "--cache-dir", workspace.path("cache-\(index)"), "--access-log", "off"]
        }
        func path(_ width: Int) -> String {
            "/unsafe/fit-in/\(width)x\(width)/" + origin.url(for: "/a.jpg").absoluteString
        }
        let first = try await ServeProcess.start(arguments(0), home: workspace.home)
        #expect(try await ServeClient.get(first.url(path(20))).status == 200)
        #expect(origin.statistics(for: "/a.jpg").requestCount == 1)
        var second = try await ServeProcess.start(arguments(1), home: workspace.home)
        #expect(try await ServeClient.get(second.url(path(21))).status == 200)
        #expect(origin.statistics(for: "/a.jpg").requestCount == 1, "the second server got the original from Redis")

        // Redis loses everything (no persistence); the second server restarts.
        second.send(SIGTERM)
        #expect(await second.waitForExit() == 0, "\(second.errorText)")
        try await redis.restart()
        second = try await ServeProcess.start(arguments(1), home: workspace.home)
        #expect(try await ServeClient.get(second.url(path(22))).status == 200)
        #expect(origin.statistics(for: "/a.jpg").requestCount == 1, "the original it got from Redis was on its own disk")

        for server in [first, second] {
            server.send(SIGTERM)
            #expect(await server.waitForExit() == 0, "\(server.errorText)")
        }
    }

    @Test func afterAShortOutageEveryServerUsesRedisAgainAfterOneBackoffStep() async throws {
        WebImageCLI.registerLaunchComponents()
        let redis = try await RedisServerProcess.start()
        defer { redis.stop() }
        let origin = try LoopbackHTTPServer(routes: ["/a.jpg": .data(try Fixtures.jpeg(width: 80, height: 60), contentType: "image/jpeg")])
        defer { origin.stop() }
        var servers: [ServeProcess] = []
        for _ in 0..<3 {
            servers.append(try await ServeProcess.start([
                "--allow-unsigned", "--allow-private-sources", "--no-cache", "--redis", "redis://127.0.0.1:\(redis.port)", "--access-log", "off",
            ], home: workspace.home))
        }
        let fleet = servers
        let started = ContinuousClock.now
        func phase(_ name: String) { print("ServeFleetRedisRecoveryTests: \(name) at \(ContinuousClock.now - started)") }
        // Load on every server: each request is a new result, so each asks Redis.
        let stop = Locked(false)
        let load = (0..<3).map { index in
            Task {
                var width = 16
                while !stop.withLock({ $0 }) {
                    width = width == 400 ? 16 : width + 1
                    _ = try? await ServeClient.get(fleet[index].url("/unsafe/fit-in/\(width)x\(width + index)/" + origin.url(for: "/a.jpg").absoluteString))
                }
            }
        }
        defer {
            stop.withLock { $0 = true }
            for task in load { task.cancel() }
        }

        // Each server has used Redis; then a 1 s outage.
        for server in fleet {
            try await waitUntil("a round trip of \(server.baseURL)") { try await ServeFleetWorkload.metric("webimage_serve_redis_round_trips_total", of: server) ?? 0 > 0 }
        }
        phase("each server has used Redis")
        await redis.kill()
        let killed = ContinuousClock.now
        for server in fleet {
            try await waitUntil("the outage seen by \(server.baseURL)") { try await ServeFleetWorkload.metric("webimage_serve_redis_up", of: server) == 0 }
        }
        try await Task.sleep(for: .seconds(1))  // the outage's length, not a wait for work
        phase("the outage seen by all")
        try await redis.restart()
        let restarted = ContinuousClock.now
        phase("restarted")

        // One outage per server, and a backoff step that has not run away: the waits double
        // only per failed probe, each after the previous wait, so the current step (2^n x the
        // first, up to a quarter less for jitter) is at most the outage's length so far, as
        // jittered waits made it, plus the first wait. (Before issue 39, concurrent failures
        // each doubled it: steps of 5 s were seen after a 1.1 s outage.)
        for server in fleet {
            let backoff = try #require(try await ServeFleetWorkload.metric("webimage_serve_redis_backoff_seconds", of: server))
            let elapsed = ContinuousClock.now - killed
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let bound = seconds / 0.75 + 0.1
            #expect(backoff <= bound, "\(server.baseURL) backs off \(backoff) s, \(elapsed) after the kill")
            #expect(try await ServeFleetWorkload.metric("webimage_serve_redis_outages_total", of: server) == 1)
        }
        var recovered: [Duration] = []
        for server in fleet {
            try await waitUntil("Redis used again by \(server.baseURL)") {
                try await ServeFleetWorkload.metric("webimage_serve_redis_recoveries_total", of: server) ?? 0 >= 1
            }
            recovered.append(ContinuousClock.now - restarted)
            #expect(try await ServeFleetWorkload.metric("webimage_serve_redis_up", of: server) == 1)
        }
        print("ServeFleetRedisRecoveryTests: Redis used again \(recovered) after the restart")

        stop.withLock { $0 = true }
        for task in load { await task.value }
        phase("load stopped")
        for server in fleet {
            server.send(SIGTERM)
            #expect(await server.waitForExit() == 0, "\(server.errorText)")
        }
    }

    /// Polls `condition` until it holds, failing after a bound far beyond what it should take.
    func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        let limit = ContinuousClock.now + .seconds(120)
        while try await !condition() {
            try #require(ContinuousClock.now < limit, "gave up waiting for \(what)")
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
