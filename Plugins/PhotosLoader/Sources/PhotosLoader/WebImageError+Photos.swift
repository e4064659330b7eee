public import WebImageCore

extension WebImageError.Code {
    /// A `photos://` URL names an asset the library does not have: an unknown identifier, an
    /// album index out of range, or an asset whose file is gone or changed since the last scan.
    /// Not a permanent failure: the asset may appear after the next rescan, so ``PhotosLoader``
    /// never blocks a URL for it. (13000)
    public static let photoAssetNotFound = WebImageError.Code(rawValue: 13_000)
    /// The photo library's root folder does not exist, is not a folder, or cannot be listed.
    /// (13001)
    public static let photoLibraryUnavailable = WebImageError.Code(rawValue: 13_001)
}
