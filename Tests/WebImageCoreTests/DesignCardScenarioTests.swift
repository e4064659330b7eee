import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

/// What users do with SwiftWebImage, per the design card: register a custom coder at launch,
/// swap in a third-party cache.
@Suite struct DesignCardScenarioTests {
    /// A user's own coder, registered at launch, wins over a built-in coder for the data it
    /// claims, and leaves other data to the built-ins.
    @Test func customCoderRegisteredAtLaunchWinsForItsData() throws {
        let builtInPNG = MockImageCoder(name: "built-in png", magic: [0x89, 0x50, 0x4E, 0x47], format: .png)
        let builtInGIF = MockImageCoder(name: "built-in gif", magic: Array("GIF8".utf8), format: .gif)
        let shared = CodersManager([builtInPNG, builtInGIF])  // as the umbrella wires it

        // At launch:
        let custom = MockImageCoder(name: "my png", magic: [0x89, 0x50, 0x4E, 0x47], format: .png)
        shared.add(custom)

        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(MockImageCoder.decoderName(of: try shared.decode(png)) == "my png")
        #expect(builtInPNG.decodeCount == 0)
        #expect(MockImageCoder.decoderName(of: try shared.decode(Data("GIF89a".utf8))) == "built-in gif")
    }

    /// A third-party cache swapped into a `CachesManager` receives the stores and answers the
    /// queries; with the defaults it is the highest member, so stores go only to it.
    @Test func swappedInCacheReceivesQueriesAndStores() async throws {
        let builtIn = MockImageCache(name: "built-in")
        let manager = CachesManager([builtIn])
        let thirdParty = MockImageCache(name: "redis")
        manager.add(thirdParty)

        try await manager.store(TestImages.still(), data: Data([1, 2, 3]), forKey: "https://example.com/a.png")
        #expect(thirdParty.keys(in: .all) == ["https://example.com/a.png"])
        #expect(builtIn.storeCount == 0)

        let hit = try #require(await manager.queryImage(forKey: "https://example.com/a.png"))
        #expect(hit.data == Data([1, 2, 3]))
        #expect(thirdParty.queryCount == 1)
        #expect(builtIn.queryCount == 0, "the first hit wins; the built-in cache is not asked")

        // Replacing the members outright also works.
        manager.caches = [thirdParty]
        #expect(await manager.containsImage(forKey: "https://example.com/a.png", cacheType: .all) == .all)
    }
}
