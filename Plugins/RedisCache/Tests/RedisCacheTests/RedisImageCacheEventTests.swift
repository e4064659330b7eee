import Foundation
import Testing
import RedisCache
import RedisServerHarness
import SwiftWebImage
import WebImageTestSupport

/// What the cache logs while it serves a request reaches that request's event stream
/// (`ImageManager.addEventObserver`) as `.log(source: "RedisImageCache")`; the config's log
/// handler still gets every entry, inside requests and out.
@Suite(.whenThePoolResponds) struct RedisImageCacheEventTests {
    let url = URL(string: "https://example.com/redis/events.png")!

    /// The `.log` events among `events`: level, source, message.
    func logs(in events: [ImageEvent]) -> [(level: ImageEvent.LogLevel, source: String, message: String)] {
        events.compactMap { event in
            if case .log(let level, let source, let message) = event.kind { (level, source, message) } else { nil }
        }
    }

    @Test func logsWhileServingARequestAreItsEvents() async throws {
        // Nothing listens on the port: the query is a logged miss, the store a logged drop.
        let port = try LoopbackSockets.freePort()
        let log = LogRecorder()
        let client = RedisClient(configuration: .init(port: port, initialReconnectDelay: 30))
        let cache = RedisTestEnvironment.makeCache(port: port, client: client, log: log)
        let manager = ImageManager(cache: cache, loader: MockImageLoader())
        let recorded = Locked<[ImageEvent]>([])
        let observation = manager.addEventObserver { event in recorded.withLock { $0.append(event) } }
        defer { observation.cancel() }

        let result = try await manager.loadImage(with: url, options: [.waitStoreCache])
        #expect(result.image != nil, "Redis failing never fails a load")
        let events = recorded.withLock { $0 }
        #expect(events.map(\.kind.name) == ["started", "log", "cacheMiss", "loaderStarted", "loaderFinished", "log", "storeFailed", "finished"])
        let entries = logs(in: events)
        #expect(entries.map(\.level) == [.error, .error])
        #expect(entries.allSatisfy { $0.source == "RedisImageCache" })
        #expect(entries[0].message.contains("the query of key \(String(reflecting: url.absoluteString)) is a miss"))
        #expect(entries[1].message.contains("dropped the store of key \(String(reflecting: url.absoluteString))"))
        #expect(events.allSatisfy { $0.requestID == events[0].requestID && $0.url == url })
        // The handler got the same entries.
        #expect(log.all.map(\.message) == entries.map(\.message))

        // Outside a request: the handler only.
        #expect(await cache.queryImage(forKey: "elsewhere") == nil)
        #expect(log.all.count == 3)
        #expect(recorded.withLock { $0.count } == events.count)
    }

    @Test(.enabled(if: RedisTestEnvironment.hasRedis, "redis-server is not installed (apt-get install redis-server): event test skipped"))
    func aCorruptValueIsAWarningEventOfTheRequest() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let log = LogRecorder()
        let cache = RedisTestEnvironment.makeCache(port: server.port, log: log)
        let raw = RedisClient(configuration: RedisTestEnvironment.clientConfiguration(port: server.port))
        _ = try await raw.send(.set(cache.redisKey(forKey: "k"), Data("not an entry".utf8)))
        let recorded = Locked<[ImageEvent]>([])
        var context = WebImageContext()
        context.imageEventSink = ImageEventSink(requestID: 9, url: url, cacheKey: "k") { event in recorded.withLock { $0.append(event) } }

        #expect(await cache.queryImage(forKey: "k", options: [], context: context, cacheType: .all) == nil)
        let events = recorded.withLock { $0 }
        #expect(events.map(\.requestID) == [9])
        let entries = logs(in: events)
        #expect(entries.count == 1)
        #expect(entries.first?.level == .warning)
        #expect(entries.first?.source == "RedisImageCache")
        #expect(entries.first?.message.contains("removed key \"k\": its value is not an entry of this cache") == true)
        #expect(log.count(of: .warning, containing: "removed key \"k\"") == 1)
    }
}
