import Foundation
import Testing
import WebImageTestSupport
import WebImageCaches

/// The SHA-256 behind ``DiskCache/fileName(forKey:)`` (a key without a path extension is named
/// by its digest alone), checked against the FIPS 180-4 examples and more; and the file name
/// rules.
@Suite(.onOwnThreads) struct FileNameTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let message: String
        let digest: String
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        // FIPS 180-4 / NIST CSRC examples.
        Vector(name: "abc", message: "abc", digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        Vector(name: "empty", message: "", digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        Vector(name: "448 bits", message: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
               digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        Vector(name: "896 bits", message: "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
               digest: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        Vector(name: "one million a", message: String(repeating: "a", count: 1_000_000),
               digest: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        // Padding boundaries (values from Python's hashlib).
        Vector(name: "55 x", message: String(repeating: "x", count: 55), digest: "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"),
        Vector(name: "56 x", message: String(repeating: "x", count: 56), digest: "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"),
        Vector(name: "63 x", message: String(repeating: "x", count: 63), digest: "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"),
        Vector(name: "64 x", message: String(repeating: "x", count: 64), digest: "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"),
        Vector(name: "65 x", message: String(repeating: "x", count: 65), digest: "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"),
        Vector(name: "119 x", message: String(repeating: "x", count: 119), digest: "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"),
        Vector(name: "120 x", message: String(repeating: "x", count: 120), digest: "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98"),
        Vector(name: "128 x", message: String(repeating: "x", count: 128), digest: "24da1b81d0b16df6428eee73c69fcb2a93c76bc6df706f0c6670fe6bfe800464"),
        // UTF-8 and NUL bytes are hashed as bytes.
        Vector(name: "unicode", message: "ключ-🖼️", digest: "4640763f4486ac2ee25f327a5edae5d01a6c9621fb6847ac932bee1f8a7ec914"),
        Vector(name: "nul byte", message: "nul\0byte", digest: "a9512ba6902d2e41f0ff8e055f2c8ee7041a092a53d27b518cde6a91ea0facd5"),
    ]

    @Test(arguments: vectors)
    func sha256(_ vector: Vector) {
        #expect(DiskCache.fileName(forKey: vector.message) == vector.digest)
    }

    @Test(arguments: [
        ("https://example.com/a/b.png?x=1#frag", "png"),
        ("https://example.com/photo.JPEG", "JPEG"),
        ("image.webp", "webp"),
        ("a/../b.jpg", "jpg"),
        ("../../etc/passwd", nil),
        ("https://example.com/dir.d/file", nil),
        ("file.averyveryverylongextension", nil),
        ("name.p%2Fng", nil),
        ("name.pn g", nil),
        (".hidden", nil),
        ("trailing.", nil),
        ("https://example.com/x.png/", nil),
        ("", nil),
    ] as [(String, String?)])
    func pathExtensionRule(_ key: String, _ pathExtension: String?) {
        let name = DiskCache.fileName(forKey: key)
        let digest = String(name.prefix(64))
        #expect(digest.count == 64 && digest.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        if let pathExtension {
            #expect(name == digest + "." + pathExtension)
        } else {
            #expect(name == digest)
        }
    }

    /// Whatever the key, the name is one safe path component.
    /// A key shown by a short description in test output (one of them is 10 kB long).
    struct Key: Sendable, CustomTestStringConvertible {
        let value: String
        var testDescription: String { value.count > 40 ? "\(value.prefix(20).debugDescription)... (\(value.count) characters)" : value.debugDescription }
    }

    @Test(arguments: ["../../etc/passwd", "/absolute", "a/b", "nul\0byte.png", String(repeating: "k", count: 10_000) + ".png", "..", ".", "x/../../../y.jpg"].map(Key.init))
    func hostileKeysMakeSafeNames(_ key: Key) {
        let name = DiskCache.fileName(forKey: key.value)
        #expect(!name.contains("/"))
        #expect(!name.contains("\0"))
        #expect(!name.hasPrefix("."))
        #expect(name.utf8.count <= 64 + 17)
    }

    @Test func namespaceDirectoryNames() {
        #expect(DiskCache.directoryName(forNamespace: "default") == "default")
        #expect(DiskCache.directoryName(forNamespace: "my-app_1.0") == "my-app_1.0")
        for hostile in ["..", ".", "", "a/b", "../../x", "nul\0", String(repeating: "n", count: 300)] {
            let name = DiskCache.directoryName(forNamespace: hostile)
            #expect(!name.contains("/") && !name.contains("\0") && !name.hasPrefix(".") && !name.isEmpty, "\(hostile.debugDescription) -> \(name)")
            #expect(name.utf8.count <= 120)
        }
        #expect(DiskCache.directoryName(forNamespace: "a/b") != DiskCache.directoryName(forNamespace: "a_b"))
    }

    @Test func defaultDirectoryFollowsXDG() {
        let xdg = DiskCache.defaultDirectory(namespace: "ns", environment: ["XDG_CACHE_HOME": "/xdg/cache", "HOME": "/home/someone"])
        #expect(xdg.path == "/xdg/cache/swiftwebimage/ns")
        let home = DiskCache.defaultDirectory(namespace: "ns", environment: ["HOME": "/home/someone"])
        #expect(home.path == "/home/someone/.cache/swiftwebimage/ns")
        // A relative XDG_CACHE_HOME is invalid by the spec and ignored.
        let relative = DiskCache.defaultDirectory(namespace: "ns", environment: ["XDG_CACHE_HOME": "relative/cache", "HOME": "/home/someone"])
        #expect(relative.path == "/home/someone/.cache/swiftwebimage/ns")
        let hostile = DiskCache.defaultDirectory(namespace: "../../etc", environment: ["HOME": "/home/someone"])
        #expect(hostile.deletingLastPathComponent().path == "/home/someone/.cache/swiftwebimage")
    }
}
