/// What one scan of a ``PhotoLibrary`` changed.
///
/// Thread-safety: a value.
public struct PhotoLibraryChanges: Sendable {
    /// An asset found at a new path: its file was renamed or moved to another folder.
    public struct Move: Hashable, Sendable {
        /// The asset, with its new path (and the same identifier).
        public let asset: PhotoAsset
        /// Where it was.
        public let previousRelativePath: String
    }

    /// Assets new to the index (new files, and edited files, whose content identifier changed).
    public internal(set) var added: [PhotoAsset] = []
    /// Assets gone from the index (deleted files, and the old identifiers of edited files).
    public internal(set) var removed: [PhotoAsset] = []
    /// Assets whose file was renamed or moved: same identifier, new path.
    public internal(set) var moved: [Move] = []
    /// Assets whose file was re-read because its size or date changed, with the same identifier
    /// at the same path (a touched file, or a changed EXIF date outside the fingerprinted bytes).
    public internal(set) var updated: [PhotoAsset] = []
    /// Files examined in this scan and left out of the index, with the reason.
    public internal(set) var skipped: [SkippedPhotoFile] = []
    /// Files opened and read in this scan: new and changed files only; unchanged files (same
    /// size and modification time as in the previous scan) are not read.
    public internal(set) var filesRead = 0
    /// Files whose size and modification time matched the previous scan.
    public internal(set) var unchangedCount = 0

    /// Whether the scan changed nothing in the index.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && moved.isEmpty && updated.isEmpty }
}
