import Foundation
import Testing
@testable import RedisCache

/// Hash slots as the Redis Cluster specification defines them: CRC16-XMODEM mod 16384, and
/// the hash tag rules.
@Suite struct RedisHashSlotTests {
    @Test func crc16MatchesTheSpecificationsTestVector() {
        #expect(RedisHashSlot.crc16(Data("123456789".utf8)) == 0x31C3)
        #expect(RedisHashSlot.crc16(Data()) == 0)
    }

    @Test(arguments: [
        ("foo", 12182),
        ("bar", 5061),
        ("123456789", 0x31C3 & 16383),
        ("", 0),
    ])
    func knownSlots(_ key: String, _ slot: Int) {
        #expect(RedisHashSlot.slot(of: Data(key.utf8)) == slot)
    }

    @Test func keysWithTheSameHashTagShareASlot() {
        let following = RedisHashSlot.slot(of: Data("{user1000}.following".utf8))
        #expect(following == RedisHashSlot.slot(of: Data("{user1000}.followers".utf8)))
        #expect(following == RedisHashSlot.slot(of: Data("user1000".utf8)))
    }

    @Test(arguments: [
        // Empty braces first: no tag, the whole key is hashed.
        ("foo{}{bar}", "foo{}{bar}"),
        // The first `{`, then the first `}` after it.
        ("foo{{bar}}zap", "{bar"),
        ("foo{bar}{zap}", "bar"),
        ("{a}", "a"),
        // No closing brace after the first `{`: the whole key.
        ("foo{bar", "foo{bar"),
        ("foo}bar{", "foo}bar{"),
        ("}{x}", "x"),
    ])
    func hashTagRules(_ key: String, _ hashed: String) {
        #expect(RedisHashSlot.slot(of: Data(key.utf8)) == Int(RedisHashSlot.crc16(Data(hashed.utf8))) % 16384)
    }

    @Test func binaryKeysHashByTheirBytes() {
        let key = Data([0, 0xFF, 0x7B, 0x01, 0x7D, 0x80])  // {\u{1}} inside
        #expect(RedisHashSlot.slot(of: key) == Int(RedisHashSlot.crc16(Data([0x01]))) % 16384)
    }
}
