/// A file under a library's root that is not in the index, and why: not an image, an image whose
/// header is corrupt or truncated, a format whose header the index cannot read, a symbolic link,
/// a folder that cannot be listed.
///
/// Skipped files are remembered with their size and modification time like assets: a rescan
/// reads one again only when it changed.
public struct SkippedPhotoFile: Hashable, Sendable, CustomStringConvertible {
    /// The path from the library's root.
    public let relativePath: String
    /// What was wrong, in words (`"JPEG header: segment 0xFFE1 at byte 2 (300 bytes) runs past
    /// the end of the 120-byte file"`).
    public let reason: String

    /// A skipped file.
    /// - Parameters:
    ///   - relativePath: Its path from the library's root.
    ///   - reason: Why it is not indexed.
    public init(relativePath: String, reason: String) {
        self.relativePath = relativePath
        self.reason = reason
    }

    /// `"<relative path>: <reason>"`.
    public var description: String { "\(relativePath): \(reason)" }
}
