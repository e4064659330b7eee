public import WebImageCore

/// Parses thumbor-style paths into ``ThumborRequest`` values.
public enum ThumborURLParser {
    /// The request `path` (as received, percent-encoded, without the query) asks for.
    /// - Throws: ``/WebImageCore/WebImageError`` naming what is malformed.
    public static func parse(_ path: String) throws(WebImageError) -> ThumborRequest {
        // Skeleton: the parser is being written (issue 22).
        throw WebImageError(.invalidURL, "thumbor URL parsing is not implemented yet: \(path)")
    }
}
