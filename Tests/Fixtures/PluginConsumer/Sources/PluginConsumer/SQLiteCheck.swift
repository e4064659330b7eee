import Foundation
import SwiftWebImage
import SQLiteCache

/// SQLiteCache: an image stored is found again, from SQLite after the memory tier is cleared.
enum SQLiteCheck {
    @Sendable static func run() async throws -> String {
        let directory = try Scratch.directory("sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = SQLiteImageCache(directory: directory)
        let image = WebImage(bitmap: try Scratch.bitmap(), format: .png)
        let key = "https://example.invalid/photo.png"
        let png = try PNGCoder().encode(image, as: .png)
        try await cache.store(image, data: png, forKey: key, options: [], context: WebImageContext(), cacheType: .all)
        await cache.clear(cacheType: .memory)
        let hit = await cache.queryImage(forKey: key, options: [], context: WebImageContext(), cacheType: .all)
        guard let hit, hit.cacheType == .disk, hit.image?.bitmap == image.bitmap else {
            throw CheckFailure("the stored image did not come back from SQLite (\(String(describing: hit?.cacheType)))")
        }
        return "stored, memory cleared, found in SQLite with the same pixels"
    }
}
