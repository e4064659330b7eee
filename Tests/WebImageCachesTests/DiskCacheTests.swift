import Foundation
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore
#if canImport(Glibc)
import Glibc
#endif

/// ``DiskCache``: storage, extended data (attribute and sidecar), read-only directories, the
/// size limit on every write, hostile keys, temporary files and write failures.
@Suite struct DiskCacheTests {
    let root = TestDirectory()

    func makeCache(_ config: DiskCache.Config = DiskCache.Config(), name: String = "cache") -> DiskCache {
        DiskCache(directory: root.appending(name), config: config)
    }

    static func bytes(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    @Test func storeReadOverwriteRemove() throws {
        let cache = makeCache()
        #expect(!FileManager.default.fileExists(atPath: cache.directory.path), "creating a cache does no I/O")
        #expect(cache.data(forKey: "k") == nil)
        try cache.setData(Self.bytes(1000, seed: 1), forKey: "k")
        #expect(cache.data(forKey: "k") == Self.bytes(1000, seed: 1))
        #expect(cache.containsData(forKey: "k"))
        try cache.setData(Self.bytes(10, seed: 2), forKey: "k")
        #expect(cache.data(forKey: "k") == Self.bytes(10, seed: 2))
        try cache.setData(Data(), forKey: "empty")
        #expect(cache.data(forKey: "empty") == Data(), "empty data is an entry, not a miss")
        #expect(cache.totalCount() == 2)
        #expect(cache.totalSize() == 10)
        cache.removeData(forKey: "k")
        #expect(cache.data(forKey: "k") == nil)
        #expect(!cache.containsData(forKey: "k"))
        #expect(cache.fileURL(forKey: "a/b.png").deletingLastPathComponent().path == cache.directory.path)
        #expect(FileManager.default.fileExists(atPath: cache.fileURL(forKey: "empty").path))
    }

    @Test(arguments: DiskCache.ExtendedDataStorage.allCases)
    func extendedDataRoundTrip(_ storage: DiskCache.ExtendedDataStorage) throws {
        let cache = makeCache(DiskCache.Config(extendedDataStorage: storage))
        let sidecar = root.appending("cache").appendingPathComponent(".ext-" + DiskCache.fileName(forKey: "k")).path
        try cache.setData(Self.bytes(100, seed: 1), forKey: "k", extendedData: Data("meta".utf8))
        #expect(cache.entry(forKey: "k") == DiskStorageEntry(data: Self.bytes(100, seed: 1), extendedData: Data("meta".utf8)))
        #expect(cache.extendedData(forKey: "k") == Data("meta".utf8))
        let usesSidecar = FileManager.default.fileExists(atPath: sidecar)
        switch storage {
        case .sidecar:
            #expect(usesSidecar, "sidecar mode keeps extended data beside the entry")
            let sidecarSize = try #require(try FileManager.default.attributesOfItem(atPath: sidecar)[.size] as? Int)
            #expect(sidecarSize > 4, "the extended data and a header that names the data")
            #expect(cache.totalSize() == 100 + sidecarSize, "a sidecar counts in the size")
        case .automatic:
            // The test directory is on the system's temporary file system; when it supports
            // user extended attributes (ext4, xfs, btrfs, tmpfs >= 6.6) no sidecar is written.
            let supported = Self.fileSystemSupportsUserAttributes(at: root.path)
            #expect(usesSidecar == !supported, "xattrs supported: \(supported)")
        }
        // Empty extended data is not "none".
        try cache.setExtendedData(Data(), forKey: "k")
        #expect(cache.extendedData(forKey: "k") == Data())
        try cache.setExtendedData(Data("other".utf8), forKey: "k")
        #expect(cache.entry(forKey: "k")?.extendedData == Data("other".utf8))
        // A store without extended data drops the old one (no stale sidecar or attribute).
        try cache.setData(Self.bytes(5, seed: 3), forKey: "k")
        #expect(cache.entry(forKey: "k") == DiskStorageEntry(data: Self.bytes(5, seed: 3), extendedData: nil))
        #expect(!FileManager.default.fileExists(atPath: sidecar))
        try cache.setData(Self.bytes(5, seed: 3), forKey: "k", extendedData: Data("again".utf8))
        try cache.setExtendedData(nil, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        #expect(throws: WebImageError.self) { try cache.setExtendedData(Data(), forKey: "absent") }
    }

    /// A sidecar names the data it belongs to: the sidecar of another write (here put back by
    /// hand, as a store between its two renames, or killed there, leaves it) is never paired
    /// with the data; the entry is a miss until the next store, and the data alone still reads.
    @Test func sidecarOfAnotherWriteIsNotPaired() throws {
        let cache = makeCache(DiskCache.Config(extendedDataStorage: .sidecar))
        let sidecar = root.appending("cache").appendingPathComponent(".ext-" + DiskCache.fileName(forKey: "k"))
        try cache.setData(Self.bytes(100, seed: 1), forKey: "k", extendedData: Data("old".utf8))
        let oldSidecar = try Data(contentsOf: sidecar)
        for newExtendedData in [Data("new".utf8), nil] {
            try cache.setData(Self.bytes(100, seed: 2), forKey: "k", extendedData: newExtendedData)
            try oldSidecar.writeWithoutSync(to: sidecar)
            #expect(cache.entry(forKey: "k") == nil, "new data with the old extended data is a miss, not a mix")
            #expect(cache.extendedData(forKey: "k") == nil)
            #expect(cache.data(forKey: "k") == Self.bytes(100, seed: 2))
        }
        try cache.setData(Self.bytes(100, seed: 3), forKey: "k", extendedData: Data("next".utf8))
        #expect(cache.entry(forKey: "k") == DiskStorageEntry(data: Self.bytes(100, seed: 3), extendedData: Data("next".utf8)))
        // The same bytes as the old sidecar's data: the old extended data is that write's pair.
        try cache.setData(Self.bytes(100, seed: 1), forKey: "k", extendedData: Data("other".utf8))
        try oldSidecar.writeWithoutSync(to: sidecar)
        #expect(cache.entry(forKey: "k") == DiskStorageEntry(data: Self.bytes(100, seed: 1), extendedData: Data("old".utf8)))
        // setExtendedData names the data too.
        try cache.setExtendedData(Data("set".utf8), forKey: "k")
        #expect(cache.entry(forKey: "k")?.extendedData == Data("set".utf8))
    }

    /// A cache directory copied elsewhere (new inodes and times) keeps its extended data: the
    /// sidecar's digest of the data still matches. Copied into a read-only directory too.
    @Test func copiedDirectoryKeepsItsSidecars() throws {
        let cache = makeCache(DiskCache.Config(extendedDataStorage: .sidecar))
        try cache.setData(Self.bytes(300, seed: 4), forKey: "k", extendedData: Data("meta".utf8))
        let copy = root.appending("copy")
        try FileManager.default.copyItem(at: cache.directory, to: copy)
        let expected = DiskStorageEntry(data: Self.bytes(300, seed: 4), extendedData: Data("meta".utf8))
        #expect(DiskCache(directory: copy, config: DiskCache.Config(extendedDataStorage: .sidecar)).entry(forKey: "k") == expected)
        let readOnly = makeCache(DiskCache.Config(extendedDataStorage: .sidecar, additionalReadOnlyDirectories: [copy]), name: "empty")
        #expect(readOnly.entry(forKey: "k") == expected)
    }

    /// Sidecars of the older format (the extended data alone): taken as they are in a
    /// read-only directory, which nothing writes; in the cache's own directory they cannot be
    /// told from a store in progress, so the entry is a miss until it is stored again.
    @Test func olderSidecarFormat() throws {
        let shipped = root.appending("shipped")
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        let name = DiskCache.fileName(forKey: "k")
        try Data("bundled".utf8).writeWithoutSync(to: shipped.appendingPathComponent(name))
        try Data("raw extended".utf8).writeWithoutSync(to: shipped.appendingPathComponent(".ext-" + name))
        let cache = makeCache(DiskCache.Config(extendedDataStorage: .sidecar, additionalReadOnlyDirectories: [shipped]))
        #expect(cache.entry(forKey: "k") == DiskStorageEntry(data: Data("bundled".utf8), extendedData: Data("raw extended".utf8)))
        #expect(cache.extendedData(forKey: "k") == Data("raw extended".utf8))

        try cache.setData(Data("own".utf8), forKey: "k")
        try Data("raw extended".utf8).writeWithoutSync(to: cache.directory.appendingPathComponent(".ext-" + name))
        #expect(cache.entry(forKey: "k") == nil)
        #expect(cache.data(forKey: "k") == Data("own".utf8))
    }

    /// An extended attribute value too large for the file system falls back to a sidecar.
    @Test func largeExtendedDataFallsBackToASidecar() throws {
        let cache = makeCache()
        let large = Self.bytes(200_000, seed: 9)  // over ext4's and tmpfs's attribute limits
        try cache.setData(Data("x".utf8), forKey: "k", extendedData: large)
        #expect(cache.extendedData(forKey: "k") == large)
    }

    /// Whether `path`'s file system takes `user.` extended attributes (probed with the
    /// `setfattr`-free way: a DiskCache in automatic mode and a look for its sidecar).
    static func fileSystemSupportsUserAttributes(at path: String) -> Bool {
        let probe = DiskCache(directory: URL(fileURLWithPath: path).appendingPathComponent("probe-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: probe.directory) }
        try? probe.setData(Data([1]), forKey: "p", extendedData: Data([2]))
        let sidecar = probe.directory.appendingPathComponent(".ext-" + DiskCache.fileName(forKey: "p")).path
        return !FileManager.default.fileExists(atPath: sidecar)
    }

    @Test func readOnlyDirectoriesAreSearchedAfterAMiss() throws {
        let shipped = root.appending("shipped")
        try FileManager.default.createDirectory(at: shipped, withIntermediateDirectories: true)
        // Pre-populated files, named as the cache names them (with and without extension).
        try Data("bundled png".utf8).writeWithoutSync(to: shipped.appendingPathComponent(DiskCache.fileName(forKey: "https://x.org/a.png")))
        let bare = String(DiskCache.fileName(forKey: "https://x.org/b.png").prefix(64))
        try Data("bundled bare".utf8).writeWithoutSync(to: shipped.appendingPathComponent(bare))
        let cache = makeCache(DiskCache.Config(additionalReadOnlyDirectories: [shipped]))
        #expect(cache.data(forKey: "https://x.org/a.png") == Data("bundled png".utf8))
        #expect(cache.data(forKey: "https://x.org/b.png") == Data("bundled bare".utf8))
        #expect(cache.containsData(forKey: "https://x.org/a.png"))
        // The writable directory wins; removal leaves the shipped file alone.
        try cache.setData(Data("fresh".utf8), forKey: "https://x.org/a.png")
        #expect(cache.data(forKey: "https://x.org/a.png") == Data("fresh".utf8))
        cache.removeData(forKey: "https://x.org/a.png")
        #expect(cache.data(forKey: "https://x.org/a.png") == Data("bundled png".utf8))
        cache.removeAll()
        #expect(cache.data(forKey: "https://x.org/b.png") == Data("bundled bare".utf8))
        #expect(cache.totalCount() == 0, "read-only directories are not counted")
    }

    /// The size limit holds after every write: over the limit, the oldest entries go until the
    /// total is at most half the limit.
    @Test func sizeLimitHoldsAfterEveryWrite() throws {
        let limit = 20_000
        let cache = makeCache(DiskCache.Config(sizeLimit: limit))
        var random = SeededRandom(seed: 7)
        for step in 0..<300 {
            let size = 1 + random.next(upTo: 3_000)
            try cache.setData(Self.bytes(size, seed: UInt8(step % 251)), forKey: "k\(random.next(upTo: 50))")
            let total = cache.totalSize()
            #expect(total <= limit, "step \(step): \(total) bytes on disk")
        }
    }

    @Test(arguments: [DiskCache.ExpireType.accessDate, .modificationDate])
    func trimRemovesOldestFirstToHalfTheLimit(_ expireType: DiskCache.ExpireType) throws {
        let cache = makeCache(DiskCache.Config(sizeLimit: 10_000, expireType: expireType))
        for index in 0..<10 { try cache.setData(Self.bytes(1000, seed: UInt8(index)), forKey: "k\(index)") }
        #expect(cache.totalSize() == 10_000, "at the limit is not over it")
        _ = cache.data(forKey: "k0")  // k0 becomes the most recently accessed
        try cache.setData(Self.bytes(1000, seed: 10), forKey: "k10")
        #expect(cache.totalSize() <= 5_000)
        let kept = (0...10).filter { cache.containsData(forKey: "k\($0)") }
        switch expireType {
        case .accessDate: #expect(kept == [0, 7, 8, 9, 10], "by access date, the read k0 is recent")
        default: #expect(kept == [6, 7, 8, 9, 10], "by modification date, reads do not count")
        }
    }

    @Test func entryLargerThanTheLimitIsRefused() throws {
        let cache = makeCache(DiskCache.Config(sizeLimit: 100))
        try cache.setData(Self.bytes(50, seed: 1), forKey: "small")
        let error = try #require(throws: WebImageError.self) { try cache.setData(Self.bytes(101, seed: 1), forKey: "big") }
        #expect(error.code == .cacheFailure)
        #expect(error.message.contains("101 bytes") && error.message.contains("\"big\""))
        #expect(cache.data(forKey: "small") != nil, "a refused store evicts nothing")
    }

    /// The ImageCache contract's hostile keys, stored: every file lands directly in the cache
    /// directory, and nothing appears anywhere else.
    @Test func hostileKeysStayInsideTheDirectory() throws {
        let cache = makeCache(name: "nested/cache")
        let keys = ["../../etc/passwd", "../escape.png", "/absolute/path", "a/b/../../c", "nul\0byte", String(repeating: "k", count: 10_000),
                    "emoji-🖼️-ключ", "", " ", "with\nnewline", "https://example.com/image.png?x=1#frag", "..", ".", "%2e%2e%2fup.jpg"]
        for (index, key) in keys.enumerated() {
            try cache.setData(Self.bytes(10 + index, seed: UInt8(index)), forKey: key, extendedData: Data([UInt8(index)]))
        }
        for (index, key) in keys.enumerated() {
            #expect(cache.data(forKey: key) == Self.bytes(10 + index, seed: UInt8(index)), "key \(index)")
        }
        let paths = root.allRelativePaths()
        #expect(paths.allSatisfy { $0 == "nested" || $0.hasPrefix("nested/cache") }, "\(paths)")
        let inside = paths.filter { $0.hasPrefix("nested/cache/") }.map { String($0.dropFirst("nested/cache/".count)) }
        #expect(inside.allSatisfy { !$0.contains("/") }, "no subdirectories: \(inside)")
        #expect(cache.totalCount() == keys.count)
    }

    /// A temporary file (what a killed writer leaves) is never an entry, and sweeps remove it
    /// once it is stale.
    @Test func temporaryFilesAreNotEntries() throws {
        let cache = makeCache()
        try cache.setData(Data("real".utf8), forKey: "k")
        let directory = cache.directory.path
        let stale = directory + "/.tmp-12345-1-abc"
        let fresh = directory + "/.tmp-12345-2-def"
        try Data("partial".utf8).writeWithoutSync(to: URL(fileURLWithPath: stale))
        try Data("partial".utf8).writeWithoutSync(to: URL(fileURLWithPath: fresh))
        FileTimes.set(stale, access: FileTimes.now() - 3600, modification: FileTimes.now() - 3600)
        #expect(cache.totalCount() == 1)
        #expect(cache.totalSize() == 4)
        cache.removeExpiredData()
        #expect(!FileManager.default.fileExists(atPath: stale), "a stale temporary file is removed")
        #expect(FileManager.default.fileExists(atPath: fresh), "a fresh one may be a write in progress")
        #expect(cache.data(forKey: "k") == Data("real".utf8))
    }

    @Test func removeAllKeepsTheDirectory() throws {
        let cache = makeCache(DiskCache.Config(extendedDataStorage: .sidecar))
        for index in 0..<5 { try cache.setData(Data([UInt8(index)]), forKey: "k\(index)", extendedData: Data([1])) }
        cache.removeAll()
        #expect(cache.totalCount() == 0)
        #expect(root.allRelativePaths() == ["cache"])
        try cache.setData(Data([9]), forKey: "after")
        #expect(cache.data(forKey: "after") == Data([9]))
    }

    /// A directory that cannot be created makes `setData` throw a clear error. Tests may run
    /// as root, where chmod does not stop writes, so this way works for everyone: the cache
    /// directory is placed under a regular file, so that creating it fails.
    @Test func directoryUnderAFileReportsAnError() throws {
        try Data("a file".utf8).writeWithoutSync(to: root.url.appendingPathComponent("file"))
        try Self.expectWriteFailure(in: root.url.appendingPathComponent("file/cache", isDirectory: true))
    }

    /// A read-only directory (chmod 0555) makes `setData` throw a clear error. Skipped as root,
    /// which ignores permission bits; the test above covers root.
    @Test(.enabled(if: chmodStopsWrites, "root ignores permission bits"))
    func readOnlyDirectoryReportsAnError() throws {
        let directory = root.appending("readonly")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(chmod(directory.path, 0o555) == 0)
        defer { _ = chmod(directory.path, 0o755) }
        try Self.expectWriteFailure(in: directory)
    }

    static func expectWriteFailure(in directory: URL) throws {
        let cache = DiskCache(directory: directory)
        let error = try #require(throws: WebImageError.self) { try cache.setData(Data("x".utf8), forKey: "key-1") }
        #expect(error.code == .cacheFailure)
        #expect(error.message.contains("\"key-1\"") && error.message.contains(directory.path), "\(error.message)")
        #expect(error.underlyingError != nil)
        #expect(cache.data(forKey: "key-1") == nil)
    }
}
