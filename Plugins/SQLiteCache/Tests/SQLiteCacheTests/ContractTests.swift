import Foundation
import SQLiteCache
import SwiftWebImage
import Testing
import WebImageTestSupport

/// `SQLiteImageCache` passes the Core ``ImageCacheContract`` in every shape it is used in: with
/// its memory tier, SQLite alone (every hit decoded from the database), with every value in a
/// file, and inside a ``CachesManager``. Each check gets a fresh cache in a fresh directory.
@Suite struct ContractTests {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case memoryAndSQLite
        case sqliteOnly
        case everyValueInAFile
        case inACachesManager

        var testDescription: String { rawValue }
    }

    let root = TemporaryDirectory()

    init() {
        RawBitmapCoder.registerFormat()
    }

    func makeCache(_ kind: Kind) -> any ImageCache {
        let directory = root.appending("cache")
        switch kind {
        case .memoryAndSQLite:
            return SQLiteImageCache(directory: directory, coder: RawBitmapCoder())
        case .sqliteOnly:
            return SQLiteImageCache(directory: directory, config: SQLiteImageCache.Config(shouldCacheImagesInMemory: false), coder: RawBitmapCoder())
        case .everyValueInAFile:
            let config = SQLiteImageCache.Config(shouldCacheImagesInMemory: false, disk: SQLiteDiskCache.Config(inlineThreshold: -1))
            return SQLiteImageCache(directory: directory, config: config, coder: RawBitmapCoder())
        case .inACachesManager:
            return CachesManager([SQLiteImageCache(directory: directory, coder: RawBitmapCoder())])
        }
    }

    @Test(arguments: Kind.allCases, ImageCacheContract.Check.allCases)
    func contract(_ kind: Kind, _ check: ImageCacheContract.Check) async throws {
        try await ImageCacheContract.verify(check, on: makeCache(kind))
    }
}
