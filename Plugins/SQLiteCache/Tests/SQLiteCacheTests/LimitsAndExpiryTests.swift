import Foundation
import SQLiteCache
import Testing
import WebImageCore
import WebImageTestSupport

/// LRU trimming to the size and count limits on every write, expiry by age (access or
/// creation time) with a clock the tests move, and the sweep of orphan value files.
@Suite struct LimitsAndExpiryTests {
    let root = TemporaryDirectory()
    let clock = TestClock()

    func makeCache(_ config: SQLiteDiskCache.Config) -> SQLiteDiskCache {
        SQLiteDiskCache(directory: root.appending("cache"), config: config, clock: clock.source)
    }

    func keys(_ cache: SQLiteDiskCache, _ candidates: [String]) -> [String] {
        candidates.filter { cache.containsData(forKey: $0) }
    }

    enum Limit: String, CaseIterable, CustomTestStringConvertible {
        /// Room for three 3,000-byte entries (inline) by size.
        case size
        /// Three entries by count.
        case count
        /// Room for three 30,000-byte entries (file-backed) by size.
        case sizeOfFileBackedValues

        var testDescription: String { rawValue }
        var config: SQLiteDiskCache.Config {
            switch self {
            case .size: SQLiteDiskCache.Config(sizeLimit: 10_000)
            case .count: SQLiteDiskCache.Config(countLimit: 3)
            case .sizeOfFileBackedValues: SQLiteDiskCache.Config(sizeLimit: 100_000)
            }
        }
        var valueSize: Int { self == .sizeOfFileBackedValues ? 30_000 : 3_000 }
    }

    /// The write that goes over a limit evicts the least recently used entry, where a read
    /// counts as a use, and the totals stay within the limits.
    @Test(arguments: Limit.allCases)
    func writeEvictsTheLeastRecentlyUsed(_ limit: Limit) throws {
        let cache = makeCache(limit.config)
        let value = Data(repeating: 1, count: limit.valueSize)
        for key in ["a", "b", "c"] { try cache.setData(value, forKey: key) }
        #expect(cache.data(forKey: "a") != nil)  // "b" is now the least recently used
        try cache.setData(value, forKey: "d")
        #expect(keys(cache, ["a", "b", "c", "d"]) == ["a", "c", "d"])
        try cache.setData(value, forKey: "e")
        #expect(keys(cache, ["a", "b", "c", "d", "e"]) == ["a", "d", "e"])
        #expect(cache.totalCount() == 3)
        #expect(cache.totalSize() == 3 * limit.valueSize)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: cache.filesDirectory.path)) ?? []
        #expect(files.count == (limit == .sizeOfFileBackedValues ? 3 : 0), "evicted entries take their files along")
    }

    /// One large write evicts as many old entries as it needs.
    @Test func largeWriteEvictsSeveral() throws {
        let cache = makeCache(SQLiteDiskCache.Config(sizeLimit: 10_000))
        for key in ["a", "b", "c", "d"] { try cache.setData(Data(count: 2_000), forKey: key) }
        try cache.setData(Data(count: 7_000), forKey: "big")
        #expect(keys(cache, ["a", "b", "c", "d", "big"]) == ["d", "big"])
        #expect(cache.totalSize() == 9_000)
    }

    /// An entry larger than the size limit is refused with a clear error, and what was stored
    /// under its key stays.
    @Test func entryOverTheSizeLimitIsRefused() throws {
        let cache = makeCache(SQLiteDiskCache.Config(sizeLimit: 1_000))
        try cache.setData(Data("old".utf8), forKey: "k")
        let error = try #require(throws: WebImageError.self) {
            try cache.setData(Data(count: 990), forKey: "k", extendedData: Data(count: 20))
        }
        #expect(error.code == .cacheFailure)
        #expect(error.message.contains("\"k\"") && error.message.contains("1010 bytes") && error.message.contains("1000"), "\(error.message)")
        #expect(cache.data(forKey: "k") == Data("old".utf8))
    }

    @Test func countLimitBelowOneRefusesWrites() throws {
        let cache = makeCache(SQLiteDiskCache.Config(countLimit: 0))
        let error = try #require(throws: WebImageError.self) { try cache.setData(Data("v".utf8), forKey: "k") }
        #expect(error.code == .cacheFailure && error.message.contains("count limit 0"), "\(error.message)")
    }

    /// A lower limit set later is enforced by the next write.
    @Test func lowerLimitAppliesAtTheNextWrite() throws {
        let cache = makeCache(SQLiteDiskCache.Config())
        for index in 0..<10 { try cache.setData(Data(count: 100), forKey: "k\(index)") }
        cache.config.countLimit = 4
        #expect(cache.totalCount() == 10)
        try cache.setData(Data(count: 100), forKey: "new")
        #expect(keys(cache, (0..<10).map { "k\($0)" } + ["new"]) == ["k7", "k8", "k9", "new"])
    }

    /// Reads remember their access times in memory; they reach the database with the next
    /// write, or when the cache goes away, so a new instance evicts in the same order.
    @Test func accessOrderSurvivesANewInstance() throws {
        do {
            let cache = makeCache(SQLiteDiskCache.Config())
            for key in ["a", "b", "c"] { try cache.setData(Data(count: 10), forKey: key) }
            _ = cache.data(forKey: "a")
        }
        let reopened = makeCache(SQLiteDiskCache.Config(countLimit: 3))
        try reopened.setData(Data(count: 10), forKey: "d")
        #expect(keys(reopened, ["a", "b", "c", "d"]) == ["a", "c", "d"])
    }

    /// Two instances on one database (two processes, say) keep the limits together: each write
    /// sees the rows the other committed.
    @Test func limitsHoldAcrossInstances() throws {
        let first = makeCache(SQLiteDiskCache.Config(countLimit: 3))
        let second = makeCache(SQLiteDiskCache.Config(countLimit: 3))
        try first.setData(Data(count: 10), forKey: "a")
        try second.setData(Data(count: 10), forKey: "b")
        try first.setData(Data(count: 10), forKey: "c")
        try second.setData(Data(count: 10), forKey: "d")
        #expect(first.totalCount() == 3)
        #expect(keys(first, ["a", "b", "c", "d"]) == ["b", "c", "d"])
        first.removeData(forKey: "b")
        try second.setData(Data(count: 10), forKey: "e")
        try second.setData(Data(count: 10), forKey: "f")
        #expect(keys(second, ["a", "b", "c", "d", "e", "f"]) == ["d", "e", "f"])
    }

    /// By access date: a read keeps an entry alive; without reads it expires `maxAge` after the
    /// last one and is removed when next read.
    @Test func expiryByAccessDate() throws {
        let cache = makeCache(SQLiteDiskCache.Config(maxAge: 60, expireType: .accessDate))
        try cache.setData(Data("v".utf8), forKey: "k")
        clock.advance(by: 50)
        #expect(cache.data(forKey: "k") != nil)
        clock.advance(by: 50)  // 100 s after the write, 50 s after the read
        #expect(cache.data(forKey: "k") != nil)
        clock.advance(by: 61)
        #expect(!cache.containsData(forKey: "k"))
        #expect(cache.data(forKey: "k") == nil)
        #expect(cache.totalCount() == 0, "an expired entry is removed when read")
    }

    /// By creation date: reads do not extend the life of an entry; a rewrite does.
    @Test func expiryByCreationDate() throws {
        let cache = makeCache(SQLiteDiskCache.Config(maxAge: 60, expireType: .creationDate))
        try cache.setData(Data("v".utf8), forKey: "k")
        try cache.setData(Data("v".utf8), forKey: "rewritten")
        clock.advance(by: 50)
        #expect(cache.data(forKey: "k") != nil)
        try cache.setData(Data("v2".utf8), forKey: "rewritten")
        clock.advance(by: 20)
        #expect(cache.data(forKey: "k") == nil)
        #expect(cache.data(forKey: "rewritten") == Data("v2".utf8))
    }

    /// A negative age never expires; 0 expires at once (SDWebImage's rule).
    @Test(arguments: [(-1.0, true), (0.0, false)])
    func specialAges(maxAge: TimeInterval, survives: Bool) throws {
        let cache = makeCache(SQLiteDiskCache.Config(maxAge: maxAge))
        try cache.setData(Data("v".utf8), forKey: "k")
        clock.advance(by: 100 * 365 * 24 * 3600)
        #expect((cache.data(forKey: "k") != nil) == survives)
    }

    /// The sweep removes expired entries (with their files) and counts them; writes over a
    /// limit remove expired entries before any live one.
    @Test func sweepAndWritesRemoveExpiredEntriesFirst() throws {
        let cache = makeCache(SQLiteDiskCache.Config(countLimit: 3, maxAge: 60))
        try cache.setData(Data(count: 50_000), forKey: "old-file")
        try cache.setData(Data(count: 10), forKey: "old")
        clock.advance(by: 100)
        try cache.setData(Data(count: 10), forKey: "new")
        #expect(cache.removeExpiredData(referenceDate: clock.now) == 2)
        #expect(cache.totalCount() == 1)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cache.filesDirectory.path)) ?? []).isEmpty)

        try cache.setData(Data(count: 10), forKey: "x")
        try cache.setData(Data(count: 10), forKey: "y")
        _ = cache.data(forKey: "new")
        clock.advance(by: 30)
        _ = cache.data(forKey: "x")
        clock.advance(by: 40)  // "new" (read 70 s ago) and "y" (written 70 s ago) are expired, "x" is not
        try cache.setData(Data(count: 10), forKey: "z")
        #expect(keys(cache, ["new", "x", "y", "z"]) == ["x", "z"])
    }

    /// Value files no row names (left by a killed writer) go once they are 10 minutes old;
    /// younger ones may belong to a write in progress, and files the cache never names stay.
    @Test func sweepRemovesStaleOrphanFilesOnly() throws {
        let cache = makeCache(SQLiteDiskCache.Config(maxAge: -1))
        try cache.setData(Data(count: 40_000), forKey: "live")
        let directory = cache.filesDirectory.path
        let orphan = String(repeating: "ab", count: 16)
        let young = String(repeating: "cd", count: 16)
        for name in [orphan, young, "README"] {
            try Data("x".utf8).writeWithoutSync(to: URL(fileURLWithPath: directory + "/" + name))
        }
        let old = Date().addingTimeInterval(-3_600)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: directory + "/" + orphan)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: directory + "/README")
        #expect(cache.removeExpiredData(referenceDate: Date()) == 0)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(!left.contains(orphan))
        #expect(left.contains(young) && left.contains("README"))
        #expect(left.count == 3, "the live entry's file stays: \(left)")
        #expect(cache.data(forKey: "live")?.count == 40_000)
    }
}
