import Foundation

/// How cache keys map to Redis keys, and the SCAN pattern that finds one namespace.
///
/// A cache key `key` in namespace `ns` is the Redis key
/// `swiftwebimage:<UTF-8 byte count of ns>:<ns>:<key>` (the key's bytes as they are: Redis keys
/// are binary-safe). The count makes the mapping unambiguous: namespace `a` with key `b:c` and
/// namespace `a:b` with key `c` are different Redis keys, and a namespace is never a prefix of
/// another's keys.
struct RedisKeyspace: Sendable {
    static let rootPrefix = "swiftwebimage:"

    /// The bytes every key of the namespace starts with.
    let prefix: Data

    init(namespace: String) {
        prefix = Data("\(Self.rootPrefix)\(namespace.utf8.count):\(namespace):".utf8)
    }

    /// The Redis key of `key`.
    func redisKey(for key: String) -> Data {
        prefix + Data(key.utf8)
    }

    /// The SCAN MATCH pattern of exactly this namespace's keys: the prefix with the glob
    /// characters `*?[]\` escaped, then `*`.
    var scanPattern: Data {
        var pattern = Data()
        pattern.reserveCapacity(prefix.count + 8)
        for byte in prefix {
            if Self.globSpecials.contains(byte) { pattern.append(UInt8(ascii: "\\")) }
            pattern.append(byte)
        }
        pattern.append(UInt8(ascii: "*"))
        return pattern
    }

    private static let globSpecials: Set<UInt8> = Set("*?[]\\".utf8)
}
