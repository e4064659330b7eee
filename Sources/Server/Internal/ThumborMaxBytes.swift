import Foundation
import WebImageCore

/// thumbor 7.8's `max_bytes(N)` (`BaseHandler.reload_to_fit_in_kb`): for JPEG and WebP output
/// larger than N bytes, encode again with the quality times 0.75 (truncated) until the output
/// fits; when the next quality would be below 10, give up and keep the first encoding, however
/// large. Other formats ignore the limit.
///
/// thumbor then tries to raise the quality again (`max(initial, quality * 1.1)`), which always
/// lands on the first quality, whose encoding did not fit, so it keeps the encoding that
/// fitted: this search gives the same answer without that last encode.
enum ThumborMaxBytes {
    /// The formats thumbor applies the limit to.
    static let formats: Set<ImageFormat> = [.jpeg, .webp]

    /// The lowest quality thumbor tries.
    static let lowestQuality = 10

    /// The limit of the last `max_bytes(N)` among `filters` (the parser drops `max_bytes(0)`).
    static func limit(in filters: [ThumborFilter]) -> Int? {
        var limit: Int?
        for case .maxBytes(let value) in filters where value > 0 { limit = value }
        return limit
    }

    /// The qualities thumbor tries after `quality`, in order: each the previous times 0.75,
    /// truncated, while at least ``lowestQuality``.
    static func lowerQualities(after quality: Int) -> [Int] {
        var qualities: [Int] = []
        var current = quality
        while true {
            current = Int(Double(current) * 0.75)
            guard current >= lowestQuality else { return qualities }
            qualities.append(current)
        }
    }

    /// The encoding thumbor keeps for `limit` bytes: `encode(quality)` when it fits, else the
    /// first of ``lowerQualities(after:)`` whose encoding fits, else `encode(quality)` again.
    /// - Throws: What `encode` throws.
    static func fit(_ limit: Int, quality: Int, encode: (Int) throws -> Data) throws -> Data {
        let first = try encode(quality)
        guard first.count > limit else { return first }
        for lower in lowerQualities(after: quality) {
            try BlockingWorkExecutor.checkCurrentJobCancellation()
            let data = try encode(lower)
            if data.count <= limit { return data }
        }
        return first
    }
}
