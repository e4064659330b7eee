import Foundation

/// How cache keys map to Redis keys, and the SCAN pattern that finds one namespace.
///
/// - **One server, Sentinel:** a cache key `key` in namespace `ns` is the Redis key
///   `swiftwebimage:<UTF-8 byte count of ns>:<ns>:<key>` (the key's bytes as they are: Redis
///   keys are binary-safe). The count makes the mapping unambiguous: namespace `a` with key
///   `b:c` and namespace `a:b` with key `c` are different Redis keys, and a namespace is never a
///   prefix of another's keys. This format must not change: entries stored by earlier
///   versions stay reachable.
/// - **Cluster** (``isHashTagged``): `swiftwebimage:{<tag>}:<count>:<ns>:<key>`, where `<tag>` is
///   ``hashTag(for:)`` of the key: 8 lowercase hex digits of a 32-bit hash of the key's bytes.
///   Redis Cluster hashes only the first `{...}` of a key, so the slot is the tag's: it comes
///   before every byte the user controls (a URL holding `{` or `}` cannot pick the slot), and
///   entries spread evenly over the slots (the tag is a hash).
/// - **One entry, one slot.** Every Redis key of one cache entry carries the same tag, the
///   tag of its cache key, so that a command or pipeline touching them stays on one slot.
///   Today an entry is one key (data and metadata in one value); a companion key added later
///   must be built from ``hashTag(for:)`` of the entry's key, the same way.
///
/// In both formats the SCAN pattern (``scanPattern``) matches exactly the keys of one
/// namespace.
struct RedisKeyspace: Sendable {
    static let rootPrefix = "swiftwebimage:"

    /// The namespace.
    let namespace: String
    /// Whether keys carry a hash tag (a Redis Cluster).
    let isHashTagged: Bool
    /// `<count>:<ns>:`: the namespace's part of every key.
    private let namespacePart: Data

    /// The keyspace of `namespace`, with hash tags for a cluster.
    init(namespace: String, hashTagged: Bool = false) {
        self.namespace = namespace
        self.isHashTagged = hashTagged
        namespacePart = Data("\(namespace.utf8.count):\(namespace):".utf8)
    }

    /// The Redis key of `key`.
    func redisKey(for key: String) -> Data {
        let bytes = Data(key.utf8)
        guard isHashTagged else { return Self.root + namespacePart + bytes }
        return Self.root + Data("{\(Self.hashTag(for: bytes))}:".utf8) + namespacePart + bytes
    }

    /// The hash tag of every Redis key of the entry for `key` in a cluster: 8 lowercase hex
    /// digits of FNV-1a (32 bits) of the key's UTF-8 bytes, mixed with MurmurHash3's final
    /// step so that every bit of the key moves every bit of the tag.
    static func hashTag(for key: Data) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in key {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        hash ^= hash >> 16
        hash = hash &* 0x85EB_CA6B
        hash ^= hash >> 13
        hash = hash &* 0xC2B2_AE35
        hash ^= hash >> 16
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Whether `redisKey` is a key of this namespace (in this keyspace's format).
    func owns(_ redisKey: Data) -> Bool {
        guard redisKey.starts(with: Self.root) else { return false }
        var rest = redisKey.dropFirst(Self.root.count)
        if isHashTagged {
            let tag = rest.prefix(Self.tagLength)
            guard tag.count == Self.tagLength, tag.first == UInt8(ascii: "{"),
                  tag.dropFirst().prefix(8).allSatisfy({ Self.hexDigits.contains($0) }),
                  tag.suffix(2).elementsEqual("}:".utf8) else { return false }
            rest = rest.dropFirst(Self.tagLength)
        }
        return rest.starts(with: namespacePart)
    }

    /// The SCAN MATCH pattern of exactly this namespace's keys: the fixed part with the glob
    /// characters `*?[]\` escaped (`?` for each hex digit of a hash tag), then `*`.
    var scanPattern: Data {
        var pattern = Data()
        pattern.reserveCapacity(Self.root.count + namespacePart.count + 16)
        pattern.append(Self.root)
        if isHashTagged {
            pattern.append(contentsOf: "{????????}:".utf8)
        }
        for byte in namespacePart {
            if Self.globSpecials.contains(byte) { pattern.append(UInt8(ascii: "\\")) }
            pattern.append(byte)
        }
        pattern.append(UInt8(ascii: "*"))
        return pattern
    }

    private static let root = Data(rootPrefix.utf8)
    /// `{`, 8 hex digits, `}:`.
    private static let tagLength = 11
    private static let hexDigits: Set<UInt8> = Set("0123456789abcdef".utf8)
    private static let globSpecials: Set<UInt8> = Set("*?[]\\".utf8)
}
