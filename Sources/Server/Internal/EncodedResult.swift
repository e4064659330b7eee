import Foundation

/// An encoded result as the server sends it: the bytes, their media type, their strong ETag,
/// and whether the response varies with `Accept`.
struct EncodedResult: Sendable {
    /// The image bytes.
    var bytes: Data
    /// `Content-Type` (`image/jpeg`, ...).
    var contentType: String
    /// The strong ETag, quoted: `"<32 hex digits>"` (the first 128 bits of the bytes' SHA-256).
    var etag: String
    /// Whether the format was negotiated from `Accept` (the response then says `Vary: Accept`).
    var variesWithAccept: Bool
    /// `max_age(N)` from the URL, which wins over the configuration's max-age (`nil`: none).
    var maxAge: Int? = nil

    /// The memory the entry takes in the result tier (bytes plus a small fixed overhead).
    var cost: Int { bytes.count + contentType.utf8.count + etag.utf8.count + 64 }
}
