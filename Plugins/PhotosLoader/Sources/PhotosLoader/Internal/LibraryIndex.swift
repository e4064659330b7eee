import Foundation

/// One scan's index, immutable: every lookup and listing the queries need, built once per scan
/// outside the lock and swapped in whole.
struct LibraryIndex: Sendable {
    var byIdentifier: [String: PhotoAsset] = [:]
    var byPath: [String: PhotoAsset] = [:]
    /// Every asset, by relative path.
    var assets: [PhotoAsset] = []
    /// Each album's assets, by relative path.
    var albumAssets: [String: [PhotoAsset]] = [:]
    /// The albums, by name.
    var albums: [PhotoAlbum] = []
    /// Every asset by ``PhotoAsset/date`` (then relative path).
    var byDate: [PhotoAsset] = []
    /// Every skipped file, by relative path.
    var skipped: [SkippedPhotoFile] = []

    init() {}

    init(assets unsorted: [PhotoAsset], skipped: [SkippedPhotoFile]) {
        assets = unsorted.sorted { $0.relativePath < $1.relativePath }
        for asset in assets {
            byIdentifier[asset.identifier] = asset
            byPath[asset.relativePath] = asset
            albumAssets[asset.album, default: []].append(asset)
        }
        albums = albumAssets.keys.sorted().map { PhotoAlbum(name: $0, assetCount: albumAssets[$0]?.count ?? 0) }
        byDate = assets.sorted { ($0.date, $0.relativePath) < ($1.date, $1.relativePath) }
        self.skipped = skipped.sorted { $0.relativePath < $1.relativePath }
    }
}
