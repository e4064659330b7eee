import Foundation
@testable import SQLiteCache
import Testing

/// How reads record recency without writing, and how the connection follows the config.
@Suite struct RecencyTests {
    let root = TemporaryDirectory()
    let clock = TestClock()

    func accessTime(_ database: RawDatabase, _ key: String) throws -> String? {
        try database.query("SELECT access_time FROM entries WHERE key = ?1", [Data(key.utf8)]).first?[0]
    }

    /// A read leaves the database alone, and so do writes under the limits; the write that
    /// must evict writes the read's access time first, so the read entry survives.
    @Test func readsAreWrittenWhenAWriteMustEvict() throws {
        let cache = SQLiteDiskCache(directory: root.appending("cache"), config: SQLiteDiskCache.Config(countLimit: 3), clock: clock.source)
        try cache.setData(Data("v".utf8), forKey: "k")
        try cache.setData(Data("w".utf8), forKey: "other")
        let database = try RawDatabase(cache)
        let written = try accessTime(database, "k")
        clock.advance(by: 10)
        let readTime = Int64(clock.now.timeIntervalSince1970 * 1_000_000)
        #expect(cache.data(forKey: "k") != nil)
        #expect(try accessTime(database, "k") == written, "the read is not written")
        try cache.setData(Data("x".utf8), forKey: "third")
        #expect(try accessTime(database, "k") == written, "nor by a write under the limits")
        try cache.setData(Data("y".utf8), forKey: "fourth")
        #expect(try accessTime(database, "k").flatMap { Int64($0) } == readTime)
        #expect(cache.containsData(forKey: "k") && !cache.containsData(forKey: "other"))
    }

    /// Once 4,096 keys have pending access times, they are written without waiting for a write.
    @Test func manyReadsAreWrittenInABatch() throws {
        let cache = SQLiteDiskCache(directory: root.appending("cache"), clock: clock.source)
        for index in 0..<SQLiteDiskCache.touchBatchSize { try cache.setData(Data("v".utf8), forKey: "k\(index)") }
        let database = try RawDatabase(cache)
        let before = try accessTime(database, "k0")
        clock.advance(by: 10)
        for index in 0..<(SQLiteDiskCache.touchBatchSize - 1) { _ = cache.data(forKey: "k\(index)") }
        #expect(try accessTime(database, "k0") == before)
        _ = cache.data(forKey: "k\(SQLiteDiskCache.touchBatchSize - 1)")
        #expect(try accessTime(database, "k0") != before)
    }

    /// `synchronizesWrites` switches SQLite between `synchronous = NORMAL` (1) and `FULL` (2),
    /// also on an open connection.
    @Test func synchronousFollowsTheConfig() throws {
        let cache = SQLiteDiskCache(directory: root.appending("cache"))
        func synchronous() throws -> Int64 {
            try cache.withDatabase { _, connection in try connection.scalarInt("PRAGMA synchronous") }
        }
        #expect(try synchronous() == 1)
        cache.config.synchronizesWrites = true
        #expect(try synchronous() == 2)
        try cache.setData(Data(count: 50_000), forKey: "k")
        #expect(cache.data(forKey: "k")?.count == 50_000)
        cache.config.synchronizesWrites = false
        #expect(try synchronous() == 1)
    }
}
