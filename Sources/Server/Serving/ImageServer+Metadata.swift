import Foundation

extension ImageServer {
    /// The media type of `/meta/` answers (and of the JSON the caches keep for them).
    static let metadataMediaType = "application/json"

    /// The `/meta/` answer `result` (plain JSON) for a request with `query`: as it is, or with
    /// `callback=NAME` in the query (the first one; an empty one is none, as thumbor has it)
    /// wrapped as JSONP, `NAME({...});` in `text/javascript`, with the wrapped bytes' ETag.
    /// - Throws: `400` for a callback that is not a dotted JavaScript identifier
    ///   (``ThumborMetadata/isCallbackName(_:)``): it is written into a script.
    static func metadataResponse(_ result: EncodedResult, query: String?) throws(ServingFailure) -> EncodedResult {
        guard let callback = callbackName(in: query) else { return result }
        guard ThumborMetadata.isCallbackName(callback) else {
            throw ServingFailure(400, "callback \(callback) is not a JavaScript name (letters, digits, _ and $, dot-separated)")
        }
        var bytes = Data(callback.utf8)
        bytes.append(UInt8(ascii: "("))
        bytes.append(result.bytes)
        bytes.append(contentsOf: Array(");".utf8))
        return EncodedResult(bytes: bytes, contentType: "text/javascript", etag: etag(of: bytes), variesWithAccept: false, maxAge: result.maxAge)
    }

    /// The first non-empty `callback` parameter of `query`, percent-decoded (`+` as a space).
    static func callbackName(in query: String?) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "callback" else { continue }
            let value = String(parts[1]).replacingOccurrences(of: "+", with: " ")
            let decoded = value.removingPercentEncoding ?? value
            if !decoded.isEmpty { return decoded }
        }
        return nil
    }
}
