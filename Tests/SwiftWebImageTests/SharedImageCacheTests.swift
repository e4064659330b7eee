import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// `WebImageCache.shared` decodes with the shared coders from its first use, whatever is
/// touched first (it used to have an empty coders manager until `CachesManager.shared` was made).
@Suite struct SharedImageCacheTests {
    /// The shared cache lives in the default place; reading its directory does no I/O.
    @Test func sharedCacheLivesInTheDefaultDirectory() throws {
        let directory = try #require(WebImageCache.shared.diskCache).directory
        #expect(directory.lastPathComponent == "default")
        #expect(directory.deletingLastPathComponent().lastPathComponent == "swiftwebimage")
        #expect(WebImageCache.shared.namespace == "default")
        #expect((WebImageCache.shared.coder as? CodersManager) === CodersManager.shared)
    }

    /// In a fresh process whose first touch of the framework is `WebImageCache.shared`, encoded
    /// PNG and JPEG data on its disk tier decodes: a disk hit with an image. The child points
    /// `XDG_CACHE_HOME` at a temporary directory first, so no test writes to the user's cache;
    /// it removes its keys and that directory after.
    @Test func sharedCacheDecodesDiskHitsOnFirstUse() async {
        await #expect(processExitsWith: .success) {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("shared-cache-\(UUID().uuidString)", isDirectory: true)
            setenv("XDG_CACHE_HOME", home.path, 1)
            defer { try? FileManager.default.removeItem(at: home) }

            let cache = WebImageCache.shared  // the first thing of the framework touched
            let directory = try #require(cache.diskCache).directory
            #expect(directory.path.hasPrefix(home.path), "the shared cache is in \(directory.path), not the temporary home")
            guard directory.path.hasPrefix(home.path) else { return }

            let image = WebImage(bitmap: TestImages.gradient(width: 6, height: 4, alpha: false))
            let encoded: [(ImageFormat, Data)] = [
                (.png, try PNGCoder().encode(image, as: .png)),
                (.jpeg, try JPEGCoder().encode(image, as: .jpeg)),
            ]
            for (format, data) in encoded {
                let key = "shared-first-use-\(format)-\(UUID().uuidString)"
                defer { cache.diskStorage.removeData(forKey: key) }
                try await cache.store(image, data: data, forKey: key, cacheType: .all)
                await cache.removeImage(forKey: key, cacheType: .memory)
                #expect(cache.imageFromMemoryCache(forKey: key) == nil)
                let hit = await cache.queryImage(forKey: key, cacheType: .all)
                #expect(hit?.cacheType == .disk, "\(format)")
                #expect(hit?.image?.pixelSize == PixelSize(width: 6, height: 4), "\(format): the disk hit decoded")
                await cache.removeImage(forKey: key, cacheType: .all)
                #expect(!cache.diskImageDataExists(forKey: key))
            }
        }
    }
}
