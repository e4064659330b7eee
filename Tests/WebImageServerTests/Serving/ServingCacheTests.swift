import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

@Suite struct ServingCacheTests {
    /// Counts the sources the server loaded (a fresh decode or a cached original).
    private static func countLoads(_ fixture: ServingFixture) -> Locked<Int> {
        let loads = Locked(0)
        fixture.server.hooks.withLock { $0.afterLoad = { _ in loads.withLock { $0 += 1 } } }
        return loads
    }

    @Test func aRepeatedURLIsAnsweredFromTheMemoryTierWithoutDecoding() async throws {
        let fixture = try ServingFixture()
        let loads = Self.countLoads(fixture)
        let request = ThumborRequest(signedPart: "photos/a.jpg", source: "photos/a.jpg")
        let first = await fixture.get(request)
        let second = await fixture.get(request)
        #expect(first.status == 200)
        #expect(second.status == 200)
        #expect(second.body == first.body)
        #expect(second.header("ETag") == first.header("ETag"))
        #expect(loads.withLock { $0 } == 1)
        #expect(fixture.entries.map(\.cacheTier) == [.none, .resultMemory])
    }

    @Test func theResultCacheAnswersWhenTheMemoryTierIsOff() async throws {
        let results = MemoryCache()
        let fixture = try ServingFixture(resultCache: results) { $0.resultMemoryCapacity = 0 }
        let loads = Self.countLoads(fixture)
        let request = ThumborRequest(signedPart: "photos/a.jpg", source: "photos/a.jpg")
        let first = await fixture.get(request)
        // The store runs after the response: wait until the result cache holds the entry.
        let key = fixture.server.resultKey(for: request, choice: .negotiated(.source))
        while await results.queryImage(forKey: key) == nil { await Task.yield() }
        let second = await fixture.get(request)
        #expect(second.status == 200)
        #expect(second.body == first.body)
        #expect(second.header("ETag") == first.header("ETag"))
        #expect(second.header("Content-Type") == "image/jpeg")
        #expect(loads.withLock { $0 } == 1)
        #expect(fixture.entries.map(\.cacheTier) == [.none, .resultCacheMemory])
    }

    @Test func theSignedAndUnsafeFormsShareOneResult() {
        let unsafe = ThumborRequest(security: .unsafe, signedPart: "300x200/a.jpg", width: 300, height: 200, source: "a.jpg")
        let signed = ThumborRequest(security: .signed("sig"), signedPart: "300x200/a.jpg", width: 300, height: 200, source: "a.jpg")
        #expect(ImageServer.resultKey(for: unsafe, choice: .negotiated(.webp)) == ImageServer.resultKey(for: signed, choice: .negotiated(.webp)))
        #expect(ImageServer.resultKey(for: unsafe, choice: .negotiated(.webp)) != ImageServer.resultKey(for: unsafe, choice: .negotiated(.avif)))
        #expect(ImageServer.resultKey(for: unsafe, choice: .explicit(.png)) != ImageServer.resultKey(for: unsafe, choice: .negotiated(.source)))
    }

    @Test func responsesCarryCachingHeaders() async throws {
        let fixture = try ServingFixture { $0.cacheMaxAge = 600 }
        let response = await fixture.get(ThumborRequest(source: "photos/a.jpg"))
        #expect(response.header("Cache-Control") == "public, max-age=600")
        let etag = try #require(response.header("ETag"))
        #expect(etag == ImageServer.etag(of: response.body))
        #expect(etag.count == 34 && etag.hasPrefix("\"") && etag.hasSuffix("\""))
        #expect(response.header("Vary") == "Accept")
    }

    @Test func ifNoneMatchGets304() async throws {
        let fixture = try ServingFixture()
        let request = ThumborRequest(source: "photos/a.jpg")
        let first = await fixture.get(request)
        let etag = try #require(first.header("ETag"))
        for condition in [etag, "\"other\", \(etag)", "W/\(etag)", "*"] {
            let response = await fixture.get(request, headers: [("If-None-Match", condition)])
            #expect(response.status == 304, "\(condition)")
            #expect(response.body.isEmpty)
            #expect(response.header("ETag") == etag)
            #expect(response.header("Content-Type") == nil)
        }
        let other = await fixture.get(request, headers: [("If-None-Match", "\"nope\"")])
        #expect(other.status == 200)
        #expect(other.body == first.body)
        // A first request with a matching ETag (a result not yet in memory) gets 304 too.
        let fresh = try ServingFixture()
        let conditional = await fresh.get(request, headers: [("If-None-Match", etag)])
        #expect(conditional.status == 304)
    }

    @Test func matchingRules() {
        #expect(ImageServer.matches("\"a\"", etag: "\"a\""))
        #expect(ImageServer.matches(" \"b\" ,\"a\"", etag: "\"a\""))
        #expect(!ImageServer.matches("\"ab\"", etag: "\"a\""))
        #expect(!ImageServer.matches("a", etag: "\"a\""))
    }

    @Test func theMemoryTierDropsTheLeastRecentlyUsed() {
        let tier = ResultMemoryTier(capacity: 3 * (100 + 64 + 10 + 4))
        func entry(_ byte: UInt8) -> EncodedResult {
            EncodedResult(bytes: Data(repeating: byte, count: 100), contentType: "image/png", etag: "\"x\"", variesWithAccept: false)
        }
        tier.set(entry(1), forKey: "a")
        tier.set(entry(2), forKey: "b")
        tier.set(entry(3), forKey: "c")
        #expect(tier.value(forKey: "a")?.bytes.first == 1)
        tier.set(entry(4), forKey: "d")
        #expect(tier.value(forKey: "b") == nil)
        #expect(tier.value(forKey: "a") != nil)
        #expect(tier.value(forKey: "c") != nil)
        #expect(tier.value(forKey: "d") != nil)
        #expect(tier.usage.count == 3)
        tier.set(entry(5), forKey: "a")
        #expect(tier.value(forKey: "a")?.bytes.first == 5)
        #expect(tier.usage.count == 3)
        let tooLarge = EncodedResult(bytes: Data(count: 10_000), contentType: "image/png", etag: "\"x\"", variesWithAccept: false)
        tier.set(tooLarge, forKey: "big")
        #expect(tier.value(forKey: "big") == nil)
        #expect(ResultMemoryTier(capacity: 0).value(forKey: "a") == nil)
    }
}

extension ServingCacheTests {
    @Test func identicalConcurrentRequestsMakeOneResult() async throws {
        let gate = AsyncGate()
        let fixture = try ServingFixture(routes: ["/slow.jpg": .delayedHeaders(until: gate, then: .data(ServingFixture.jpeg(), contentType: "image/jpeg"))])
        let loads = Self.countLoads(fixture)
        let request = ThumborRequest(signedPart: "same", source: fixture.originSource("/slow.jpg"))
        let count = 4
        let bodies = await withTaskGroup(of: Data.self) { group in
            for _ in 0..<count {
                group.addTask { await fixture.get(request).body }
            }
            await fixture.origin.waitForRequests(to: "/slow.jpg")
            while fixture.server.resultFlights.joinCount < count - 1 { await Task.yield() }
            gate.open()
            return await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(Set(bodies).count == 1)
        #expect(bodies[0].count > 0)
        #expect(loads.withLock { $0 } == 1)
        #expect(fixture.origin.statistics(for: "/slow.jpg").requestCount == 1)
    }
}
