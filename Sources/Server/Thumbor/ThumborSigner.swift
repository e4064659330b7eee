/// Signs and checks thumbor URLs: URL-safe base64 of HMAC-SHA1(key, the path after the signature).
public struct ThumborSigner: Sendable {
    /// The security key.
    public let key: String

    /// A signer with the server's security key.
    public init(key: String) {
        self.key = key
    }

    /// The signature of `signedPart` (the path after `/<signature>/`, without a leading slash).
    public func signature(for signedPart: String) -> String {
        // Skeleton: HMAC-SHA1 is being written (issue 22).
        ""
    }

    /// Whether `signature` is the signature of `signedPart` (compared in constant time).
    public func isValid(signature: String, for signedPart: String) -> Bool {
        false
    }
}
