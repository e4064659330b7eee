public import Foundation

/// An album of a ``PhotoLibrary``: a folder that directly holds at least one asset.
///
/// Thread-safety: a value.
public struct PhotoAlbum: Hashable, Sendable {
    /// The folder's path from the library's root (`"2023/Summer"`); `""` is the root itself.
    public let name: String
    /// How many assets the folder holds directly (not counting sub-folders).
    public let assetCount: Int

    /// The last component of ``name`` (`"Summer"`); `""` for the root.
    public var title: String {
        guard let slash = name.lastIndex(of: "/") else { return name }
        return String(name[name.index(after: slash)...])
    }

    /// `photos://album/<name>/<index>`: the URL of the asset at `index` in this album.
    public func url(at index: Int) -> URL {
        PhotosURL.album(name: name, index: index).url
    }
}
