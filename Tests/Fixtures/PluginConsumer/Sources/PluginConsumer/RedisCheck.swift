import Foundation
import SwiftWebImage
import RedisCache

/// RedisCache: constructed against a loopback port where no server listens; by its failure
/// policy a query is a miss, not an error (no Redis server is needed to build or run this).
enum RedisCheck {
    @Sendable static func run() async throws -> String {
        let configuration = RedisClient.Configuration(host: "127.0.0.1", port: 1, connectTimeout: 0.5, commandTimeout: 0.5)
        let logged = LogCount()
        let config = RedisImageCache.Config(namespace: "plugin-consumer") { _ in logged.add() }
        let cache = RedisImageCache(configuration: configuration, config: config, coder: CodersManager.shared)
        let layered = cache.makeLayeredCache()
        let hit = await layered.queryImage(forKey: "https://example.invalid/a.png", options: [], context: WebImageContext(), cacheType: .all)
        guard hit == nil else { throw CheckFailure("a query with no server answered a hit") }
        guard cache.statistics.failedQueries == 1, logged.count == 1 else {
            throw CheckFailure("expected one failed query, counted and logged (\(cache.statistics.failedQueries), \(logged.count))")
        }
        return "constructed with a memory tier in front; with no server a query is a miss, counted and logged once"
    }
}
