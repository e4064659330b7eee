import Testing
@testable import WebImageServer

/// Vectors computed with Python 3.11:
/// `base64.urlsafe_b64encode(hmac.new(key.encode(), part.encode(), hashlib.sha1).digest())`
/// (libthumbor's `base64_hmac_sha1` signer); the first three are libthumbor's own test URLs
/// (`tests/test_cryptourl.py`, key `my-security-key`).
@Suite struct ThumborSignerTests {
    @Test(arguments: [
        ("my-security-key", "300x200/my.server.com/some/path/to/image.jpg", "8ammJH8D-7tXy6kU3lTvoXlhu4o="),
        ("my-security-key", "10x10:200x200/300x200/my.server.com/some/path/to/image.jpg", "B35oBEIwztbc3jm7vsdqLez2C78="),
        ("my-security-key", "10x10:200x200/300x200/filters:brightness(20):contrast(10)/my.server.com/some/path/to/image.jpg", "as8U2DbUUtTMgvPF26LkjS3MocY="),
        ("something", "10x11:12x13/-300x-300/center/middle/smart/some/image.jpg", "jF7DnlqMr04h7IQ3QBGQ3P991X8="),
        ("MY_SECURE_KEY", "fit-in/300x200/https%3A%2F%2Fexample.com%2Fa.jpg", "zLoG7J1t1es1PohAb-PPTCixSQc="),
        ("", "a.jpg", "oA_J0PrQg_exRVWtBOVDDgfbeVM="),
        ("k", "", "OoSiGO5mZSCbtw6EUl3YN2RaGWU="),
        ("téste-ключ", "fit-in/300x200/filters:format(webp)/ex.com/ü.jpg", "yiPtx79CK5v5Ce-ksNxfmBUgiEg="),
        (String(repeating: "x", count: 64), "exactly-block-key", "wL5xHwN7Ufecqasq2kVIXYaNcks="),
        (String(repeating: "y", count: 65), "long-key-is-hashed", "GhuDkxuOKzxzekh5B9NpnsnpgXU="),
        (String(repeating: "y", count: 200), String(repeating: "x", count: 1000), "babfz7iVK3gqtoQsUzgdiNLCxN4="),
    ])
    func signsLikeThumbor(key: String, signedPart: String, expected: String) {
        let signer = ThumborSigner(key: key)
        #expect(signer.signature(for: signedPart) == expected)
        #expect(signer.isValid(signature: expected, for: signedPart))
    }

    /// thumbor 7.8.0 (key `my-security-key`) answered 200 to
    /// `/8GUu6psnUkkxV0M5pXl9xE3t04g=/fit-in/100x100/1000x500%2Epng` and 400 to the same path
    /// signed over its decoded form (`PuzSO65ZmdeC3QuPCljhyNPegvY=`): the signature covers the
    /// path as received, still percent-encoded.
    @Test func theSignatureCoversThePathAsReceived() throws {
        let request = try ThumborURLParser.parse("/8GUu6psnUkkxV0M5pXl9xE3t04g=/fit-in/100x100/1000x500%2Epng")
        let signer = ThumborSigner(key: "my-security-key")
        #expect(request.signedPart == "fit-in/100x100/1000x500%2Epng")
        #expect(signer.isValid(signature: "8GUu6psnUkkxV0M5pXl9xE3t04g=", for: request.signedPart))
        #expect(!signer.isValid(signature: "PuzSO65ZmdeC3QuPCljhyNPegvY=", for: request.signedPart))
        #expect(request.source == "1000x500.png")
    }

    @Test func signedPathPutsTheSignatureFirst() {
        let signer = ThumborSigner(key: "my-security-key")
        let expected = "/8ammJH8D-7tXy6kU3lTvoXlhu4o=/300x200/my.server.com/some/path/to/image.jpg"
        #expect(signer.signedPath("300x200/my.server.com/some/path/to/image.jpg") == expected)
        #expect(signer.signedPath("/300x200/my.server.com/some/path/to/image.jpg") == expected)
    }

    @Test func refusesWrongSignatures() {
        let signer = ThumborSigner(key: "my-security-key")
        let part = "300x200/my.server.com/some/path/to/image.jpg"
        #expect(!signer.isValid(signature: "8ammJH8D-7tXy6kU3lTvoXlhu4O=", for: part))
        #expect(!signer.isValid(signature: "8ammJH8D-7tXy6kU3lTvoXlhu4o", for: part))
        #expect(!signer.isValid(signature: "", for: part))
        #expect(!signer.isValid(signature: "8ammJH8D-7tXy6kU3lTvoXlhu4o=", for: part + "x"))
        #expect(!ThumborSigner(key: "my-security-key ").isValid(signature: "8ammJH8D-7tXy6kU3lTvoXlhu4o=", for: part))
    }

    @Test func aSignedPathRoundTrips() throws {
        let signer = ThumborSigner(key: "secret")
        let part = "fit-in/640x480/filters:format(webp)/https%3A%2F%2Fexample.com%2Fphoto.jpg"
        let request = try ThumborURLParser.parse("/\(signer.signature(for: part))/\(part)")
        guard case .signed(let signature) = request.security else {
            Issue.record("not signed: \(request.security)")
            return
        }
        #expect(request.signedPart == part)
        #expect(signer.isValid(signature: signature, for: request.signedPart))
    }

    @Test(arguments: [
        (0, "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (3, "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        (56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
        (119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56"),
    ])
    func sha1MatchesHashlib(length: Int, expected: String) {
        // "abc" for 3 (FIPS 180 example), else `length` bytes of "a" (Python's hashlib).
        let message = length == 3 ? Array("abc".utf8) : [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(hex(CryptoSHA1.hash(message)) == expected)
    }

    @Test func sha1OfSeveralBlocksMatchesHashlib() {
        // bytes(range(256)) * 3 in Python.
        let message = (0..<768).map { UInt8($0 % 256) }
        #expect(hex(CryptoSHA1.hash(message)) == "ac2a264c8ec1f4232a40854e8239bc3a697ab1d2")
    }

    @Test func constantTimeEqualComparesWholeArrays() {
        #expect(CryptoHMACSHA1.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!CryptoHMACSHA1.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!CryptoHMACSHA1.constantTimeEqual([1, 2, 3], [1, 2]))
        #expect(CryptoHMACSHA1.constantTimeEqual([], []))
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
