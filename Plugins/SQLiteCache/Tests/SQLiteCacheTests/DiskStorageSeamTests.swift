import Foundation
import SQLiteCache
import Testing
import WebImageCaches
import WebImageCore

/// The seam proposed for the core (see the README, "Using it as the disk tier of
/// WebImageCache"): a `DiskStorage` protocol of the synchronous data API that `WebImageCache`
/// uses of its `DiskCache`. This file declares the proposal locally and shows that both the
/// built-in `DiskCache` and `SQLiteDiskCache` conform with no code, and behave alike through it.
protocol ProposedDiskStorage: AnyObject, Sendable {
    func entry(forKey key: String) -> DiskCache.Entry?
    func data(forKey key: String) -> Data?
    func containsData(forKey key: String) -> Bool
    func setData(_ data: Data, forKey key: String, extendedData: Data?) throws
    func removeData(forKey key: String)
    func removeAll()
    func totalSize() -> Int
    func totalCount() -> Int
    func removeExpiredData(referenceDate: Date) -> Int
}

extension DiskCache: ProposedDiskStorage {}
extension SQLiteDiskCache: ProposedDiskStorage {}

@Suite struct DiskStorageSeamTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case builtInDiskCache
        case sqliteDiskCache
        var testDescription: String { rawValue }
    }

    let root = TemporaryDirectory()

    func makeStorage(_ kind: Kind) -> any ProposedDiskStorage {
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
        #expect(storage.entry(forKey: "k") == DiskCache.Entry(data: Data(count: 100), extendedData: Data("ext".utf8)))
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
}
