public import Foundation

/// Lookups and listings over the index of the last finished scan. Each call reads one snapshot
/// of the index: cheap (no sorting; the orders are built once per scan), never blocked by a
/// running scan.
extension PhotoLibrary {
    /// Every asset, ordered by relative path.
    public var assets: [PhotoAsset] { index.assets }

    /// How many assets the index holds.
    public var assetCount: Int { index.assets.count }

    /// The asset with `identifier` (32 hex digits; letter case is ignored), or `nil`.
    public func asset(withIdentifier identifier: String) -> PhotoAsset? {
        index.byIdentifier[identifier.lowercased()]
    }

    /// The asset whose file is at `relativePath` (`"2023/Summer/beach.jpg"`), or `nil`.
    public func asset(atRelativePath relativePath: String) -> PhotoAsset? {
        index.byPath[relativePath]
    }

    /// The albums (folders holding at least one asset directly), ordered by name; the root
    /// folder, if it holds assets, is the album `""` and comes first.
    public var albums: [PhotoAlbum] { index.albums }

    /// The assets of the album `name`, ordered by relative path (so by file name).
    /// - Parameters:
    ///   - name: The folder's path from the root (`"2023/Summer"`; `""` for the root).
    ///   - includingSubalbums: Also the assets of every folder below it (default `false`).
    /// - Returns: The assets; empty for an unknown album.
    public func assets(inAlbum name: String, includingSubalbums: Bool = false) -> [PhotoAsset] {
        let index = index
        guard includingSubalbums else { return index.albumAssets[name] ?? [] }
        if name.isEmpty { return index.assets }
        let prefix = name + "/"
        return index.assets.filter { $0.album == name || $0.relativePath.hasPrefix(prefix) }
    }

    /// The asset at `position` in ``assets(inAlbum:includingSubalbums:)`` of `album` (what
    /// `photos://album/<name>/<index>` addresses), or `nil` when out of range.
    ///
    /// Positions move when files are added to or removed from the folder: address an asset by
    /// its identifier to keep addressing it.
    public func asset(inAlbum album: String, at position: Int) -> PhotoAsset? {
        guard let assets = index.albumAssets[album], assets.indices.contains(position) else { return nil }
        return assets[position]
    }

    /// Every asset ordered by ``PhotoAsset/date`` (capture date, else file date), then by
    /// relative path.
    /// - Parameter ascending: Oldest first (default) or newest first.
    public func assetsByDate(ascending: Bool = true) -> [PhotoAsset] {
        ascending ? index.byDate : index.byDate.reversed()
    }

    /// The assets whose ``PhotoAsset/date`` lies in `start ..< end`, oldest first (a binary
    /// search over the date order).
    public func assets(from start: Date, to end: Date) -> [PhotoAsset] {
        let ordered = index.byDate
        let lower = firstIndex(in: ordered) { $0.date >= start }
        let upper = firstIndex(in: ordered) { $0.date >= end }
        return lower < upper ? Array(ordered[lower..<upper]) : []
    }

    /// The files under the root that are not in the index, with the reason, ordered by path.
    public var skippedFiles: [SkippedPhotoFile] { index.skipped }

    /// The first index of `ordered` for which `isAtOrAfter` holds (it must hold for a suffix).
    private func firstIndex(in ordered: [PhotoAsset], where isAtOrAfter: (PhotoAsset) -> Bool) -> Int {
        var low = 0, high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(ordered[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
