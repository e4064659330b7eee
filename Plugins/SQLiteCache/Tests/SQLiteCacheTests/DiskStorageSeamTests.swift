import Foundation
import SQLiteCache
import SwiftWebImage
import Testing
import WebImageTestSupport

/// The core's `DiskStorage` seam: `SQLiteDiskCache` and the built-in `DiskCache` behave alike
/// through it, and the core's `WebImageCache` over an `SQLiteDiskCache` passes the
/// `ImageCacheContract` and runs the whole `ImageManager` flow.
@Suite struct DiskStorageSeamTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case builtInDiskCache
        case sqliteDiskCache
        var testDescription: String { rawValue }
    }

    let root = TemporaryDirectory()

    init() {
        RawBitmapCoder.registerFormat()
    }

    func makeStorage(_ kind: Kind) -> any DiskStorage {
        switch kind {
        case .builtInDiskCache: DiskCache(directory: root.appending("disk"), config: DiskCache.Config(sizeLimit: 1 << 20))
        case .sqliteDiskCache: SQLiteDiskCache(directory: root.appending("sqlite"), config: SQLiteDiskCache.Config(sizeLimit: 1 << 20))
        }
    }

    @Test(arguments: Kind.allCases)
    func bothTiersBehaveAlikeThroughTheSeam(_ kind: Kind) throws {
        let storage = makeStorage(kind)
        #expect(storage.entry(forKey: "k") == nil && !storage.containsData(forKey: "k"))
        try storage.setData(Data(count: 100), forKey: "k", extendedData: Data("ext".utf8))
        try storage.setData(Data(count: 50_000), forKey: "large", extendedData: nil)
        #expect(storage.entry(forKey: "k") == DiskStorageEntry(data: Data(count: 100), extendedData: Data("ext".utf8)))
        #expect(storage.data(forKey: "large") == Data(count: 50_000))
        #expect(storage.totalCount() == 2)
        #expect(storage.totalSize() >= 50_100)
        storage.removeData(forKey: "k")
        #expect(!storage.containsData(forKey: "k") && storage.totalCount() == 1)
        let error = try #require(throws: WebImageError.self) { try storage.setData(Data(count: 2 << 20), forKey: "huge", extendedData: nil) }
        #expect(error.code == .cacheFailure)
        #expect(storage.removeExpiredData(referenceDate: Date().addingTimeInterval(8 * 24 * 3600)) == 1)
        storage.removeAll()
        #expect(storage.totalCount() == 0 && storage.data(forKey: "large") == nil)
    }

    /// The core cache over SQLite, with and without its memory tier (without: every hit is
    /// decoded from the database).
    @Test(arguments: [true, false], ImageCacheContract.Check.allCases)
    func webImageCacheOverSQLitePassesTheContract(_ inMemory: Bool, _ check: ImageCacheContract.Check) async throws {
        let storage = SQLiteDiskCache(directory: root.appending("contract"))
        let cache = WebImageCache(diskStorage: storage, config: WebImageCache.Config(shouldCacheImagesInMemory: inMemory), coder: RawBitmapCoder())
        try await ImageCacheContract.verify(check, on: cache)
    }

    /// The one line of the README, in a manager: miss, load, store into the database; a memory
    /// hit; then, on a new cache over the same database (the next launch), a disk hit decoded
    /// with the built-in coders.
    @Test func imageManagerFlowThroughWebImageCacheOverSQLite() async throws {
        let image = TestImages.still(width: 20, height: 10, seed: 3)
        let pngData = try CodersManager.shared.encode(image, as: .png)
        let url = URL(string: "mock://images/seam.png")!
        let loader = MockImageLoader(schemes: ["mock"])
        loader.respond(to: url, with: .image(image, data: pngData))
        let directory = root.appending("manager")

        let storage = SQLiteDiskCache(directory: directory)
        let cache = WebImageCache(diskStorage: storage, coder: CodersManager.shared)
        let manager = ImageManager(cache: cache, loader: loader)
        let first = try await manager.loadImage(with: url, options: .waitStoreCache)
        #expect(first.cacheType == ImageCacheType.none)
        #expect(storage.data(forKey: url.absoluteString) == pngData)
        #expect(storage.totalCount() == 1)
        let second = try await manager.loadImage(with: url)
        #expect(second.cacheType == .memory)

        let relaunched = ImageManager(cache: WebImageCache(diskStorage: SQLiteDiskCache(directory: directory), coder: CodersManager.shared), loader: loader)
        let third = try await relaunched.loadImage(with: url)
        #expect(third.cacheType == .disk)
        #expect(third.image?.bitmap == image.bitmap, "PNG is lossless")
        #expect(loader.requestCount == 1)
    }
}
