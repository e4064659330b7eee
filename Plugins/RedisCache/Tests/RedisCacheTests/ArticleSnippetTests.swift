import Foundation
import RedisCache
import SwiftWebImage
import Testing
import WebImageCore

/// The code listing of the RedisCache catalog (`Plugins/RedisCache/Sources/RedisCache/RedisCache.docc`),
/// compiled and run: the lines between `// DOCS NAME begin` and `// DOCS NAME end` are the
/// article's block marked `<!-- snippet: NAME -->` (the umbrella's
/// `ArticleSnippetTests.articleSnippetsAreTheCodeTestedHere` compares them, line for line).
@Suite struct ArticleSnippetTests {
    /// The listing's `CachesManager.shared`, here a manager of its own: every test target of the
    /// package runs in one process, and a cache in the process-wide manager would be queried by
    /// every load through `ImageManager.shared` (here one naming a server off this machine).
    enum CachesManager {
        static let shared = WebImageCore.CachesManager()
    }

    /// Adding the cache makes no connection (the client connects on its first round trip), so
    /// the listing runs without a server.
    @Test func registrationAddsARedisCacheForTheNamedServer() throws {
        // DOCS redis-register begin
        CachesManager.shared.add(RedisImageCache(configuration: .init(host: "10.0.0.5"), coder: CodersManager.shared))
        // DOCS redis-register end
        let cache = try #require(CachesManager.shared.caches.last as? RedisImageCache)
        #expect(CachesManager.shared.caches.count == 1)
        #expect(cache.client.configuration.host == "10.0.0.5")
        #expect(cache.client.configuration.port == 6379)
        #expect(cache.client.statistics.connectionsOpened == 0, "no connection yet")
        #expect(cache.coder as AnyObject === CodersManager.shared)
    }
}
