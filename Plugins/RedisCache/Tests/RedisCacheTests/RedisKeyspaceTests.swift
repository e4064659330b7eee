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
        #expect(!RedisKeyspace(namespace: "img2").redisKey(for: "x").starts(with: short.prefix))
        #expect(!RedisKeyspace(namespace: "img:2").redisKey(for: "x").starts(with: short.prefix))
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
