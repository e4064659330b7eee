import Foundation
import SQLiteCache
import Testing
import WebImageCore
import WebImageTestSupport

/// Bad input from the disk: a damaged or foreign database, truncated or missing value files, a
/// row naming a path outside the cache, an unusable or vanished directory. Reads are misses,
/// writes either work or throw a clear error; nothing crashes.
@Suite struct DamageTests {
    let root = TemporaryDirectory()

    func makeCache() -> SQLiteDiskCache {
        SQLiteDiskCache(directory: root.appending("cache"))
    }

    /// A file that is not a database, or a database of an unknown schema version, is replaced
    /// by a new, empty cache (with its value files gone).
    @Test(arguments: ["garbage", "future schema"])
    func unusableDatabaseIsRebuilt(_ damage: String) throws {
        do {
            let cache = makeCache()
            try cache.setData(Data(count: 50_000), forKey: "old")
            if damage == "future schema" { try RawDatabase(cache).query("PRAGMA user_version = 99") }
        }
        let cache = makeCache()
        if damage == "garbage" {
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cache.databaseURL.path + suffix) }
            try Data(repeating: 0x5A, count: 8_192).writeWithoutSync(to: cache.databaseURL)
        }
        #expect(cache.data(forKey: "old") == nil)
        try cache.setData(Data("new".utf8), forKey: "new")
        #expect(cache.data(forKey: "new") == Data("new".utf8))
        #expect(cache.totalCount() == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.filesDirectory.path).isEmpty)
        #expect(try RawDatabase(cache).query("PRAGMA user_version") == [["1"]])
    }

    /// A value file cut short or deleted behind the cache's back is a miss, and its row goes.
    @Test(arguments: ["truncated", "deleted"])
    func damagedValueFileIsAMiss(_ damage: String) throws {
        let cache = makeCache()
        try cache.setData(Data(count: 50_000), forKey: "k")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.filesDirectory.path).first)
        let path = cache.filesDirectory.appendingPathComponent(name).path
        if damage == "truncated" {
            try Data(count: 100).writeWithoutSync(to: URL(fileURLWithPath: path))
        } else {
            try FileManager.default.removeItem(atPath: path)
        }
        #expect(cache.data(forKey: "k") == nil)
        #expect(cache.totalCount() == 0)
        #expect(!cache.containsData(forKey: "k"))
    }

    /// A row whose file name points outside the files directory is never followed.
    @Test func rowNamingAPathOutsideIsNeverFollowed() throws {
        let cache = makeCache()
        try cache.setData(Data(count: 50_000), forKey: "k")
        let outside = root.url.appendingPathComponent("secret")
        try Data(count: 50_000).writeWithoutSync(to: outside)
        try RawDatabase(cache).query("UPDATE entries SET file_name = '../../secret'")
        #expect(cache.data(forKey: "k") == nil)
        cache.removeAll()
        #expect(FileManager.default.fileExists(atPath: outside.path), "removal never deletes outside the cache")
    }

    /// A directory that cannot be made (a file is in the way): reads miss, writes throw a
    /// `cacheFailure` that names the path.
    @Test func unusableDirectory() throws {
        let blocker = root.url.appendingPathComponent("blocker")
        try Data("file".utf8).writeWithoutSync(to: blocker)
        let cache = SQLiteDiskCache(directory: blocker.appendingPathComponent("cache"))
        #expect(cache.data(forKey: "k") == nil)
        #expect(!cache.containsData(forKey: "k"))
        #expect(cache.totalCount() == 0)
        cache.removeData(forKey: "k")
        cache.removeAll()
        for size in [10, 50_000] {
            let error = try #require(throws: WebImageError.self) { try cache.setData(Data(count: size), forKey: "k") }
            #expect(error.code == .cacheFailure)
            #expect(error.message.contains(blocker.path), "\(error.message)")
            #expect(error.message.contains("\"k\""), "\(error.message)")
        }
    }

    /// The directory removed while the cache is open: the next write starts a new database
    /// instead of writing into the deleted one.
    @Test func directoryRemovedBehindTheCachesBack() throws {
        let cache = makeCache()
        try cache.setData(Data("v".utf8), forKey: "k")
        try cache.setData(Data(count: 50_000), forKey: "f")
        try FileManager.default.removeItem(at: cache.directory)
        #expect(cache.data(forKey: "k") == nil)
        try cache.setData(Data("w".utf8), forKey: "k")
        try cache.setData(Data(count: 50_000), forKey: "f")
        let reopened = makeCache()
        #expect(reopened.data(forKey: "k") == Data("w".utf8))
        #expect(reopened.data(forKey: "f")?.count == 50_000)
        #expect(reopened.totalCount() == 2)
    }
}
