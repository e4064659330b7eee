import Foundation
import SQLiteCache
import Testing
import WebImageCore

/// The storage itself: inline and file-backed values, round trips of odd values, and what
/// happens to value files on overwrite, removal and clearing.
@Suite struct DiskCacheStorageTests {
    let root = TemporaryDirectory()

    func makeCache(_ config: SQLiteDiskCache.Config = SQLiteDiskCache.Config()) -> SQLiteDiskCache {
        SQLiteDiskCache(directory: root.appending("cache"), config: config)
    }

    func valueFiles(_ cache: SQLiteDiskCache) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.filesDirectory.path)) ?? []).sorted()
    }

    static func bytes(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    /// Values up to the threshold (20 kB by default, as YYCache) stay in the row; larger ones
    /// go to a file whose bytes are exactly the value.
    @Test(arguments: [(0, "inline"), (1, "inline"), (20 * 1024, "inline"), (20 * 1024 + 1, "file"), (300_000, "file")])
    func valueGoesInlineOrToAFile(size: Int, expected: String) throws {
        let cache = makeCache()
        let value = Self.bytes(size)
        try cache.setData(value, forKey: "k", extendedData: Data("ext".utf8))
        let storage = try #require(try RawDatabase(cache).storage(ofKey: "k"))
        #expect(storage.hasPrefix(expected), "\(size) bytes: \(storage)")
        let files = valueFiles(cache)
        #expect(files.count == (expected == "file" ? 1 : 0))
        if expected == "file", let name = files.first {
            #expect(storage == "file \(name)")
            #expect(FileManager.default.contents(atPath: cache.filesDirectory.appendingPathComponent(name).path) == value)
        }
        let entry = try #require(cache.entry(forKey: "k"))
        #expect(entry.data == value)
        #expect(entry.extendedData == Data("ext".utf8))
        #expect(cache.totalSize() == size + 3)
        #expect(cache.totalCount() == 1)
    }

    @Test func thresholdIsConfigurable() throws {
        let cache = makeCache(SQLiteDiskCache.Config(inlineThreshold: 100))
        try cache.setData(Self.bytes(100), forKey: "small")
        try cache.setData(Self.bytes(101), forKey: "large")
        let database = try RawDatabase(cache)
        #expect(try database.storage(ofKey: "small") == "inline")
        #expect(try database.storage(ofKey: "large")?.hasPrefix("file ") == true)
    }

    /// Overwrites move a value between row and file, and never leave a file no row names.
    @Test func overwriteRemovalAndClearLeaveNoStrayFiles() throws {
        let cache = makeCache()
        let large = Self.bytes(50_000, seed: 1)
        let larger = Self.bytes(60_000, seed: 2)
        try cache.setData(large, forKey: "k")
        let first = valueFiles(cache)
        #expect(first.count == 1)
        try cache.setData(larger, forKey: "k")
        let second = valueFiles(cache)
        #expect(second.count == 1 && second != first, "an overwrite writes a new file and removes the old one")
        #expect(cache.data(forKey: "k") == larger)
        try cache.setData(Data("small".utf8), forKey: "k")
        #expect(valueFiles(cache).isEmpty)
        #expect(cache.data(forKey: "k") == Data("small".utf8))
        try cache.setData(large, forKey: "k")
        cache.removeData(forKey: "k")
        #expect(valueFiles(cache).isEmpty)
        #expect(cache.data(forKey: "k") == nil)
        for index in 0..<5 { try cache.setData(large, forKey: "k\(index)") }
        #expect(valueFiles(cache).count == 5)
        cache.removeAll()
        #expect(valueFiles(cache).isEmpty)
        #expect(cache.totalCount() == 0 && cache.totalSize() == 0)
        #expect(cache.data(forKey: "k0") == nil)
    }

    /// Empty data, empty keys, NUL bytes, long and non-ASCII keys, and absent or empty extended
    /// data all round-trip as they were given.
    @Test func oddKeysAndValuesRoundTrip() throws {
        let cache = makeCache()
        let keys = ["", "nul\0byte", "nul\0other", String(repeating: "k", count: 10_000), "emoji-🖼️-ключ", "../../etc/passwd"]
        for (index, key) in keys.enumerated() {
            try cache.setData(Data("value-\(index)".utf8), forKey: key, extendedData: index % 2 == 0 ? nil : Data())
        }
        for (index, key) in keys.enumerated() {
            let entry = try #require(cache.entry(forKey: key), "key \(index)")
            #expect(entry.data == Data("value-\(index)".utf8))
            #expect(entry.extendedData == (index % 2 == 0 ? nil : Data()))
        }
        try cache.setData(Data(), forKey: "empty")
        #expect(cache.data(forKey: "empty") == Data())
        #expect(cache.containsData(forKey: "empty"))
        #expect(!cache.containsData(forKey: "nul"), "a key is not found by its prefix before a NUL byte")
        #expect(cache.totalCount() == keys.count + 1)
    }

    /// Extended data is replaced by each write, and read without reading the value file.
    @Test func extendedDataFollowsTheLastWrite() throws {
        let cache = makeCache()
        try cache.setData(Self.bytes(30_000), forKey: "k", extendedData: Data("first".utf8))
        #expect(cache.extendedData(forKey: "k") == Data("first".utf8))
        try cache.setData(Self.bytes(30_000), forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        #expect(cache.extendedData(forKey: "absent") == nil)
    }

    /// Creating a cache touches nothing; the first use creates the directory and database.
    @Test func creatingDoesNoIO() throws {
        let directory = root.appending("lazy")
        let cache = SQLiteDiskCache(directory: directory)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(cache.data(forKey: "k") == nil)
        #expect(FileManager.default.fileExists(atPath: cache.databaseURL.path))
        #expect(cache.databaseURL.lastPathComponent == SQLiteDiskCache.databaseFileName)
    }

    /// The database runs in WAL mode with the documented schema.
    @Test func databaseIsInWALModeWithOneEntriesTable() throws {
        let cache = makeCache()
        try cache.setData(Data("v".utf8), forKey: "k")
        let database = try RawDatabase(cache)
        #expect(try database.query("PRAGMA journal_mode") == [["wal"]])
        let columns = try database.query("SELECT name FROM pragma_table_info('entries') ORDER BY cid").map { $0[0] }
        #expect(columns == ["key", "size", "access_time", "creation_time", "file_name", "extended_data", "data"])
        #expect(try database.query("SELECT count(*) FROM sqlite_master WHERE type = 'table'") == [["1"]])
    }
}
