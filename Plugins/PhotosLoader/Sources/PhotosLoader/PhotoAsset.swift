public import Foundation
public import WebImageCore

/// One image of a ``PhotoLibrary``: what the index knows about a file without decoding its
/// pixels.
///
/// ## Identifier
/// ``identifier`` is derived from the file's contents, not from its path: the first 128 bits
/// (32 hex digits) of SHA-256 over the file size, its first 64 KiB and its last 64 KiB (the whole
/// file when it is 128 KiB or smaller). Hence:
/// - it is the same on every scan and in every process, with no database: a library scanned
///   afresh after a restart gives every unchanged file its identifier again;
/// - it survives renames and moves between albums (folders): same bytes, same identifier;
/// - it changes when the bytes it covers change: an edited photo (even a metadata-only edit,
///   which rewrites the EXIF block at the start of the file) is a new asset, and the old
///   identifier disappears. Photo libraries keep originals unchanged, so this is the rare case;
///   and it means a `photos://asset/<id>` URL always names the same pixels, which is what a
///   cache key must do.
/// - Copies with identical fingerprints: the first one indexed keeps the plain identifier; each
///   further copy gets one derived from the fingerprint and its relative path (SHA-256 again).
///   In a fresh scan "first" is the smallest relative path.
///
/// Thread-safety: a value; share it freely.
public struct PhotoAsset: Hashable, Sendable, Identifiable {
    /// The stable identifier: 32 lowercase hex digits (see the type's documentation).
    public let identifier: String
    /// The path from the library's root, with `/` separators (`"2023/Summer/beach.jpg"`).
    public let relativePath: String
    /// The format, from the file's magic bytes (not its extension).
    public let format: ImageFormat
    /// The size as displayed: the header's size with the EXIF orientation applied (width and
    /// height swapped for orientations 5...8), as the built-in coders decode it.
    public let pixelSize: PixelSize
    /// The file's size in bytes.
    public let fileSize: Int64
    /// The file's modification date.
    public let fileDate: Date
    /// When the photo was taken: EXIF DateTimeOriginal, in the zone of OffsetTimeOriginal when
    /// the file has one, else in the library's ``PhotoLibrary/Configuration/captureTimeZone``.
    /// `nil` when the file has no (valid) DateTimeOriginal.
    public let captureDate: Date?
    /// The EXIF orientation (1...8; the XMP `tiff:Orientation` when EXIF has none), `nil` when
    /// the file has none. JPEG only.
    public let orientation: Int?
    /// The thumbnail embedded in the EXIF block (IFD1), when there is a readable one. JPEG only.
    public let embeddedThumbnail: EmbeddedThumbnail?
    /// The size and modification time that the incremental rescan compares.
    let stamp: FileStamp

    /// A JPEG thumbnail stored in a photo's EXIF block (typically 160x120).
    public struct EmbeddedThumbnail: Hashable, Sendable {
        /// Its size as displayed: oriented like the photo (the EXIF thumbnail has no orientation
        /// of its own; it is stored like the primary image).
        public let pixelSize: PixelSize
        /// Where its JPEG data starts in the file.
        public let fileOffset: Int
        /// The length of its JPEG data.
        public let byteCount: Int
    }

    /// The asset's identifier (`Identifiable`).
    public var id: String { identifier }

    /// The album: the folder holding the file, relative to the root (`"2023/Summer"`); `""` for
    /// files directly in the root.
    public var album: String {
        guard let slash = relativePath.lastIndex(of: "/") else { return "" }
        return String(relativePath[..<slash])
    }

    /// The file's name (`"beach.jpg"`).
    public var fileName: String {
        guard let slash = relativePath.lastIndex(of: "/") else { return relativePath }
        return String(relativePath[relativePath.index(after: slash)...])
    }

    /// The date photo views sort by: ``captureDate``, else ``fileDate``.
    public var date: Date { captureDate ?? fileDate }

    /// `photos://asset/<identifier>`: the URL that loads this asset through ``PhotosLoader``.
    public var url: URL { PhotosURL.asset(identifier: identifier).url }

    init(identifier: String, relativePath: String, format: ImageFormat, pixelSize: PixelSize, stamp: FileStamp,
         captureDate: Date?, orientation: Int?, embeddedThumbnail: EmbeddedThumbnail?) {
        self.identifier = identifier
        self.relativePath = relativePath
        self.format = format
        self.pixelSize = pixelSize
        self.fileSize = stamp.size
        self.fileDate = Date(timeIntervalSince1970: stamp.modificationInterval)
        self.captureDate = captureDate
        self.orientation = orientation
        self.embeddedThumbnail = embeddedThumbnail
        self.stamp = stamp
    }
}
