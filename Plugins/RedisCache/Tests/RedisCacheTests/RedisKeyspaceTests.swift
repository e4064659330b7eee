import Foundation
import Testing
@testable import RedisCache
import WebImageTestSupport

/// How cache keys become Redis keys, and the SCAN pattern of one namespace.
@Suite struct RedisKeyspaceTests {
    @Test func keysCarryTheNamespaceAndItsLength() {
        let keyspace = RedisKeyspace(namespace: "avatars")
        #expect(keyspace.redisKey(for: "https://x/a.png") == Data("swiftwebimage:7:avatars:https://x/a.png".utf8))
        #expect(RedisKeyspace(namespace: "ключ").redisKey(for: "k") == Data("swiftwebimage:8:ключ:k".utf8))
    }

    @Test func namespacesNeverShareKeys() {
        // Without the length, ("a", "b:c") and ("a:b", "c") would both be "a:b:c".
        #expect(RedisKeyspace(namespace: "a").redisKey(for: "b:c") != RedisKeyspace(namespace: "a:b").redisKey(for: "c"))
        // A namespace is never a prefix of another's keys.
        let short = RedisKeyspace(namespace: "img")
        #expect(!short.owns(RedisKeyspace(namespace: "img2").redisKey(for: "x")))
        #expect(!short.owns(RedisKeyspace(namespace: "img:2").redisKey(for: "x")))
        #expect(short.owns(short.redisKey(for: "x")))
    }

    @Test func theScanPatternEscapesGlobCharacters() {
        let pattern = RedisKeyspace(namespace: #"a*b?[c]\d"#).scanPattern
        #expect(String(decoding: pattern, as: UTF8.self) == #"swiftwebimage:9:a\*b\?\[c\]\\d:*"#)
        #expect(String(decoding: RedisKeyspace(namespace: "plain").scanPattern, as: UTF8.self) == "swiftwebimage:5:plain:*")
    }

    @Test func publicRedisKeyMatches() {
        let cache = RedisImageCache(configuration: .init(port: 1), config: .init(namespace: "n"), coder: RawBitmapCoder())
        #expect(cache.redisKey(forKey: "k") == Data("swiftwebimage:1:n:k".utf8))
        #expect(cache.namespace == "n")
    }
}

/// The cluster key format: a hash tag the cache controls, before any byte of the user's key.
@Suite(.onOwnThreads) struct RedisClusterKeyspaceTests {
    private let keyspace = RedisKeyspace(namespace: "avatars", hashTagged: true)

    @Test func clusterKeysCarryAHashTagOfTheKey() {
        let tag = RedisKeyspace.hashTag(for: Data("https://x/a.png".utf8))
        #expect(tag.count == 8 && tag.allSatisfy(\.isHexDigit) && tag == tag.lowercased())
        #expect(keyspace.redisKey(for: "https://x/a.png") == Data("swiftwebimage:{\(tag)}:7:avatars:https://x/a.png".utf8))
        // Stable across runs and processes (not Swift's seeded Hasher): a fleet agrees on it.
        #expect(RedisKeyspace.hashTag(for: Data("https://example.com/image.jpg".utf8)) == RedisKeyspace.hashTag(for: Data("https://example.com/image.jpg".utf8)))
        // Always 8 digits (leading zeros kept): the SCAN pattern counts on it.
        #expect((0..<2000).allSatisfy { RedisKeyspace.hashTag(for: Data("k\($0)".utf8)).count == 8 })
    }

    @Test(arguments: ["https://x/{user1000}.png", "{}", "a{b}c", "{{", "}{", "{\u{0}}", "plain"])
    func theCachesTagPicksTheSlotNotTheUsersBraces(_ key: String) {
        let redisKey = keyspace.redisKey(for: key)
        let tag = RedisKeyspace.hashTag(for: Data(key.utf8))
        #expect(RedisHashSlot.slot(of: redisKey) == RedisHashSlot.slot(of: Data(tag.utf8)))
    }

    @Test func theStandaloneFormatIsUnchanged() {
        #expect(RedisKeyspace(namespace: "avatars").redisKey(for: "{x}") == Data("swiftwebimage:7:avatars:{x}".utf8))
        #expect(RedisKeyspace(namespace: "avatars").owns(Data("swiftwebimage:7:avatars:{x}".utf8)))
        #expect(!RedisKeyspace(namespace: "avatars").owns(keyspace.redisKey(for: "{x}")))
    }

    @Test func entriesSpreadEvenlyOverTheSlots() {
        // 16 ranges of 1024 slots; 32,000 URL-like keys that differ in a few characters.
        var counts = [Int](repeating: 0, count: 16)
        for index in 0..<32_000 {
            counts[RedisHashSlot.slot(of: keyspace.redisKey(for: "https://cdn.example.com/images/\(index).jpg")) / 1024] += 1
        }
        #expect(counts.allSatisfy { (1700...2300).contains($0) }, "\(counts)")
        // Keys of one namespace sharing their user's hash tag still spread.
        var tagged = [Int](repeating: 0, count: 16)
        for index in 0..<32_000 {
            tagged[RedisHashSlot.slot(of: keyspace.redisKey(for: "{same}\(index)")) / 1024] += 1
        }
        #expect(tagged.allSatisfy { (1700...2300).contains($0) }, "\(tagged)")
    }

    @Test func theScanPatternMatchesOneNamespace() {
        #expect(String(decoding: keyspace.scanPattern, as: UTF8.self) == "swiftwebimage:{????????}:7:avatars:*")
        #expect(String(decoding: RedisKeyspace(namespace: "a*{b}", hashTagged: true).scanPattern, as: UTF8.self) == #"swiftwebimage:{????????}:5:a\*{b}:*"#)
        #expect(keyspace.owns(keyspace.redisKey(for: "k")))
        #expect(!keyspace.owns(RedisKeyspace(namespace: "avatars2", hashTagged: true).redisKey(for: "k")))
        #expect(!keyspace.owns(RedisKeyspace(namespace: "avatars").redisKey(for: "k")))
        #expect(!keyspace.owns(Data("swiftwebimage:{zzzzzzzz}:7:avatars:k".utf8)))
    }

    @Test func aClusterCacheUsesTaggedKeys() {
        let cluster = RedisClient.Configuration(topology: .cluster(.init(seeds: [RedisEndpoint(host: "127.0.0.1", port: 1)])))
        let cache = RedisImageCache(configuration: cluster, config: .init(namespace: "n"), coder: RawBitmapCoder())
        #expect(cache.redisKey(forKey: "k") == Data("swiftwebimage:{\(RedisKeyspace.hashTag(for: Data("k".utf8)))}:1:n:k".utf8))
    }
}
