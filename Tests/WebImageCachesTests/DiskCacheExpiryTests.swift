import Foundation
import Testing
import WebImageCaches
import WebImageCore

/// Expiry by each date kind. For each kind, an "old" entry is made expired by that date only
/// (the other dates say it is fresh) and a "new" entry is fresh by it; a sweep must remove
/// exactly the old one.
@Suite struct DiskCacheExpiryTests {
    let root = TestDirectory()
    static let week: Double = 7 * 24 * 3600

    /// Writes `key` again and again (no sleeping) until `date` of its file is later than
    /// `after`: file systems stamp times at the kernel tick, so two quick writes may share one.
    func write(_ key: String, to cache: DiskCache, until date: (String) -> Double?, isAfter after: Double) throws {
        for attempt in 0..<1_000_000 {
            try cache.setData(Data("new \(attempt)".utf8), forKey: key)
            if let stamp = date(cache.fileURL(forKey: key).path), stamp > after { return }
        }
        Issue.record("the clock did not advance")
    }

    @Test(arguments: DiskCache.ExpireType.allCases)
    func expiryByDateKind(_ expireType: DiskCache.ExpireType) throws {
        let cache = DiskCache(directory: root.appending("cache"), config: DiskCache.Config(maxAge: Self.week, expireType: expireType))
        try cache.setData(Data("old".utf8), forKey: "old")
        let oldPath = cache.fileURL(forKey: "old").path
        let now = FileTimes.now()
        let future = now + 30 * 24 * 3600
        let past = now - 30 * 24 * 3600
        let referenceDate: Double

        switch expireType {
        case .accessDate:
            FileTimes.set(oldPath, access: past, modification: future)
            try cache.setData(Data("new".utf8), forKey: "new")
            referenceDate = now
        case .modificationDate:
            FileTimes.set(oldPath, access: future, modification: past)
            try cache.setData(Data("new".utf8), forKey: "new")
            referenceDate = now
        case .creationDate:
            // Birth times cannot be set: "old" was born before "new", and both have access
            // and modification dates far in the future.
            FileTimes.set(oldPath, access: future, modification: future)
            let oldBirth = try #require(FileTimes.creation(oldPath), "the file system reports no birth time")
            try write("new", to: cache, until: FileTimes.creation, isAfter: oldBirth)
            let newBirth = try #require(FileTimes.creation(cache.fileURL(forKey: "new").path))
            FileTimes.set(cache.fileURL(forKey: "new").path, access: future, modification: future)
            referenceDate = (oldBirth + newBirth) / 2 + Self.week
        case .changeDate:
            // Change times cannot be set either (setting other times stamps them now).
            FileTimes.set(oldPath, access: future, modification: future)
            let oldChange = try #require(FileTimes.get(oldPath)?.change)
            try write("new", to: cache, until: { FileTimes.get($0)?.change }, isAfter: oldChange)
            let newChange = try #require(FileTimes.get(cache.fileURL(forKey: "new").path)?.change)
            referenceDate = (oldChange + newChange) / 2 + Self.week
        }

        let removed = cache.removeExpiredData(referenceDate: Date(timeIntervalSince1970: referenceDate))
        #expect(removed == 1)
        #expect(cache.data(forKey: "old") == nil, "expired by \(expireType)")
        #expect(cache.data(forKey: "new") != nil, "fresh by \(expireType)")
    }

    /// Reading an entry makes it fresh by access date, even on file systems mounted noatime.
    @Test func readingRefreshesTheAccessDate() throws {
        let cache = DiskCache(directory: root.appending("cache"))
        try cache.setData(Data("x".utf8), forKey: "read")
        try cache.setData(Data("x".utf8), forKey: "unread")
        let past = FileTimes.now() - 30 * 24 * 3600
        for key in ["read", "unread"] { FileTimes.set(cache.fileURL(forKey: key).path, access: past, modification: past) }
        #expect(cache.data(forKey: "read") != nil)
        cache.removeExpiredData()
        #expect(cache.containsData(forKey: "read"))
        #expect(!cache.containsData(forKey: "unread"))
    }

    @Test func negativeMaxAgeNeverExpiresAndZeroExpiresEverything() throws {
        let cache = DiskCache(directory: root.appending("cache"), config: DiskCache.Config(maxAge: -1))
        for index in 0..<3 { try cache.setData(Data([UInt8(index)]), forKey: "k\(index)") }
        #expect(cache.removeExpiredData(referenceDate: Date().addingTimeInterval(100 * Self.week)) == 0)
        #expect(cache.totalCount() == 3)
        cache.config.maxAge = 0
        #expect(cache.removeExpiredData(referenceDate: Date().addingTimeInterval(1)) == 3)
        #expect(cache.totalCount() == 0)
    }

    /// `removeExpiredData` also enforces the size limit (a lower limit set later).
    @Test func removeExpiredDataTrimsToHalfTheLimit() throws {
        let cache = DiskCache(directory: root.appending("cache"))
        for index in 0..<10 { try cache.setData(Data(repeating: UInt8(index), count: 1000), forKey: "k\(index)") }
        cache.config.sizeLimit = 6000
        cache.removeExpiredData()
        #expect(cache.totalSize() == 3000)
        #expect((0..<10).filter { cache.containsData(forKey: "k\($0)") } == [7, 8, 9])
    }
}
