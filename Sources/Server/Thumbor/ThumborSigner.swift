/// Signs and checks thumbor URLs: the URL-safe base64 (with `=` padding, 28 characters) of
/// HMAC-SHA1(key, the path after the signature), as thumbor 7.8 does (libthumbor's
/// `base64_hmac_sha1` URL signer).
///
/// The signed part is everything after `/<signature>/`, exactly as it appears in the request
/// path (still percent-encoded, without the query): for
/// `/<signature>/fit-in/300x200/https%3A%2F%2Fexample.com%2Fa.jpg` it is
/// `fit-in/300x200/https%3A%2F%2Fexample.com%2Fa.jpg`. ``ThumborURLParser`` gives it as
/// ``ThumborRequest/signedPart``.
///
/// ```swift
/// let signer = ThumborSigner(key: "MY_SECURE_KEY")
/// let path = signer.signedPath("fit-in/300x200/https%3A%2F%2Fexample.com%2Fa.jpg")
/// // "/<28 characters>=/fit-in/300x200/https%3A%2F%2Fexample.com%2Fa.jpg"
/// ```
///
/// A value type with no shared state; safe from any thread.
public struct ThumborSigner: Sendable {
    /// The security key (thumbor's `SECURITY_KEY`), used as its UTF-8 bytes.
    public let key: String

    /// A signer with the server's security key.
    public init(key: String) {
        self.key = key
    }

    /// The signature of `signedPart` (the path after `/<signature>/`, without a leading slash):
    /// 28 characters of URL-safe base64 (`-` and `_` for `+` and `/`), ending in `=`.
    public func signature(for signedPart: String) -> String {
        String(decoding: signatureBytes(for: signedPart), as: UTF8.self)
    }

    /// The request path for `signedPart`: `/<signature>/<signedPart>`.
    ///
    /// `signedPart` is the path after the signature as it will be sent, percent-encoding
    /// included (encode the image URL before signing: `https%3A%2F%2F...`); a leading `/`
    /// is not part of it and is dropped.
    public func signedPath(_ signedPart: String) -> String {
        let part = signedPart.hasPrefix("/") ? String(signedPart.dropFirst()) : signedPart
        return "/\(signature(for: part))/\(part)"
    }

    /// Whether `signature` is the signature of `signedPart`.
    ///
    /// The comparison takes the same time wherever the first wrong character is, so a
    /// client cannot find a valid signature one character at a time by timing answers.
    /// `signature` is compared as given: percent-decode it first (``ThumborURLParser`` does).
    public func isValid(signature: String, for signedPart: String) -> Bool {
        CryptoHMACSHA1.constantTimeEqual(signatureBytes(for: signedPart), Array(signature.utf8))
    }

    /// The ASCII bytes of the signature of `signedPart`.
    private func signatureBytes(for signedPart: String) -> [UInt8] {
        let code = CryptoHMACSHA1.authenticationCode(key: Array(key.utf8), message: Array(signedPart.utf8))
        return ThumborBase64.urlSafeEncoded(code)
    }
}
