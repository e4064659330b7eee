import Foundation
import Testing
import WebImageTestSupport
import WebImageCore

/// ``SHA256`` and ``SHA256Digest``: the FIPS 180-4 / NIST examples, the padding boundaries,
/// streaming in pieces cut every way, and the digest's forms.
@Suite(.onOwnThreads) struct SHA256Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let message: [UInt8]
        let digest: String
        var testDescription: String { name }

        init(_ name: String, _ message: String, _ digest: String) {
            self.name = name
            self.message = Array(message.utf8)
            self.digest = digest
        }
    }

    static let vectors: [Vector] = [
        // FIPS 180-4 / NIST CSRC examples.
        Vector("empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        Vector("abc", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        Vector("448 bits", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        Vector("896 bits", "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
               "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        Vector("one million a", String(repeating: "a", count: 1_000_000),
               "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        // Padding boundaries: the length fits in the last block (55), just does not (56), and
        // around whole blocks (values from Python's hashlib).
        Vector("55 x", String(repeating: "x", count: 55), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"),
        Vector("56 x", String(repeating: "x", count: 56), "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"),
        Vector("63 x", String(repeating: "x", count: 63), "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"),
        Vector("64 x", String(repeating: "x", count: 64), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"),
        Vector("65 x", String(repeating: "x", count: 65), "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"),
        Vector("119 x", String(repeating: "x", count: 119), "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"),
        Vector("120 x", String(repeating: "x", count: 120), "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98"),
        Vector("128 x", String(repeating: "x", count: 128), "24da1b81d0b16df6428eee73c69fcb2a93c76bc6df706f0c6670fe6bfe800464"),
        // UTF-8 and NUL bytes are hashed as bytes.
        Vector("unicode", "ключ-🖼️", "4640763f4486ac2ee25f327a5edae5d01a6c9621fb6847ac932bee1f8a7ec914"),
        Vector("nul byte", "nul\0byte", "a9512ba6902d2e41f0ff8e055f2c8ee7041a092a53d27b518cde6a91ea0facd5"),
    ]

    @Test(arguments: vectors)
    func oneShot(_ vector: Vector) {
        #expect(SHA256.hash(vector.message).hexString == vector.digest)
    }

    /// Pieces of sizes 1, 4, 13, ... (crossing block borders every way) give the one-shot digest.
    @Test(arguments: vectors)
    func unevenPiecesMatchOneShot(_ vector: Vector) {
        var hasher = SHA256()
        var offset = 0
        var piece = 1
        while offset < vector.message.count {
            let end = min(offset + piece, vector.message.count)
            hasher.update(vector.message[offset..<end])
            offset = end
            piece = piece * 3 % 997 + 1
        }
        #expect(hasher.finalize().hexString == vector.digest)
    }

    /// Every cut of a 200-byte message into two pieces, and byte by byte.
    @Test func everyCutMatchesOneShot() {
        let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let expected = SHA256.hash(message)
        for cut in 0...message.count {
            var hasher = SHA256()
            hasher.update(message[..<cut])
            hasher.update(message[cut...])
            #expect(hasher.finalize() == expected, "cut at \(cut)")
        }
        var bytewise = SHA256()
        for byte in message { bytewise.update(CollectionOfOne(byte)) }
        #expect(bytewise.finalize() == expected)
    }

    /// Contiguous and non-contiguous inputs of the same bytes agree (`Data`, a string's UTF-8,
    /// a lazy sequence that is copied first).
    @Test func inputKindsAgree() {
        let text = "https://example.com/images/photo.png?size=large"
        let expected = SHA256.hash(Array(text.utf8))
        #expect(SHA256.hash(text.utf8) == expected)
        #expect(SHA256.hash(Data(text.utf8)) == expected)
        #expect(SHA256.hash(text.utf8.lazy.map { $0 }) == expected)
        #expect(SHA256.hash(Array(text.utf8).withUnsafeBytes { Array($0) }) == expected)
    }

    /// Finalizing does not spend the hasher: more bytes extend the message.
    @Test func finalizeLeavesTheHasherUsable() {
        var hasher = SHA256()
        hasher.update("ab".utf8)
        #expect(hasher.finalize() == SHA256.hash("ab".utf8))
        hasher.update("c".utf8)
        #expect(hasher.finalize().hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256().finalize() == SHA256.hash([UInt8]()))
    }

    @Test func digestForms() {
        let digest = SHA256.hash("abc".utf8)
        #expect(digest.bytes == [
            0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
            0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
        ])
        #expect(digest.description == digest.hexString)
        #expect(digest != SHA256.hash("abd".utf8))
        #expect(Set([digest, SHA256.hash("abc".utf8)]).count == 1)
    }
}
