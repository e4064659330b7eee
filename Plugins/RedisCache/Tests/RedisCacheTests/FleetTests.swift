import Foundation
import Testing
import RedisCache
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport

/// The reason the plug-in exists: servers of a fleet share one cache. Real processes, a real
/// Redis, a loopback HTTP server that counts requests.
@Suite(.whenThePoolResponds, .enabled(if: RedisTestEnvironment.hasRedis, "redis-server is not installed (apt-get install redis-server): fleet tests skipped"))
struct FleetTests {
    static let image = WebImage(bitmap: TestImages.gradient(width: 48, height: 32, seed: 9))

    @Test func twoProcessesShareTheCache() async throws {
        let redis = try await RedisServerProcess.start()
        defer { redis.stop() }
        let http = try LoopbackHTTPServer()
        defer { http.stop() }
        http.route("/fleet.png", .data(try PNGCoder().encode(Self.image, as: .png), contentType: "image/png"))
        let namespace = RedisTestEnvironment.uniqueNamespace("fleet")
        let url = http.url(for: "/fleet.png")

        let first = try await Self.runProbe(redisPort: redis.port, namespace: namespace, url: url)
        #expect(first == "cacheType=none size=48x32", "the first server downloads")
        let second = try await Self.runProbe(redisPort: redis.port, namespace: namespace, url: url)
        #expect(second == "cacheType=disk size=48x32", "the second server hits the shared cache")
        #expect(http.statistics(for: "/fleet.png").requestCount == 1)
    }

    @Test func loadsSurviveRedisDyingAndTheCacheResumesAfterARestart() async throws {
        let redis = try await RedisServerProcess.start()
        defer { redis.stop() }
        let http = try LoopbackHTTPServer()
        defer { http.stop() }
        http.route("/a.png", .data(try PNGCoder().encode(Self.image, as: .png), contentType: "image/png"))
        let url = http.url(for: "/a.png")
        let log = LogRecorder()
        let cache = RedisTestEnvironment.makeCache(port: redis.port, log: log)
        cache.coder = CodersManager.shared
        var configuration = DownloaderConfiguration()
        configuration.urlCache = nil
        let manager = ImageManager(cache: cache, loader: Downloader(configuration: configuration, coder: CodersManager.shared))
        func load() async throws -> ImageLoadResult {
            let result = try await manager.loadImage(with: url, options: [.waitStoreCache])
            // The load delivers, then leaves the manager's table: a request arriving before it
            // has left would be served its image from memory instead of asking Redis.
            while manager.isRunning { await Task.yield() }
            return result
        }

        #expect(try await load().cacheType == .none)
        #expect(try await load().cacheType == .disk)
        #expect(http.statistics(for: "/a.png").requestCount == 1)

        await redis.kill()
        let whileDown = try await load()
        #expect(whileDown.cacheType == .none)
        #expect(whileDown.image?.pixelSize == Self.image.pixelSize)
        #expect(http.statistics(for: "/a.png").requestCount == 2)
        #expect(cache.statistics.failedQueries >= 1)
        #expect(log.count(of: .error, containing: "dropped the store") + cache.statistics.droppedStores >= 1)

        try await redis.restart()
        if let retryAt = cache.client.reconnectAllowedAt {
            try await Task.sleep(until: retryAt + .milliseconds(1), clock: .continuous)
        }
        #expect(try await load().cacheType == .none)  // the restarted Redis is empty
        #expect(try await load().cacheType == .disk)
        #expect(http.statistics(for: "/a.png").requestCount == 3)
    }

    /// Runs the probe executable (a separate process with its own ImageManager) and returns
    /// its one line of output.
    static func runProbe(redisPort: Int, namespace: String, url: URL) async throws -> String {
        let outcome = try await ChildProcess.run(try probeURL().path, [String(redisPort), namespace, url.absoluteString])
        guard outcome.succeeded else {
            throw ProbeFailure(description: "probe exited with \(outcome.status): \(outcome.errorText)")
        }
        return outcome.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ProbeFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The probe executable: next to the running test binary (or in a parent directory).
    static func probeURL() throws -> URL {
        let executable = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("RedisCacheProbe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw ProbeFailure(description: "RedisCacheProbe was not found next to \(executable); build it with the tests")
    }
}
