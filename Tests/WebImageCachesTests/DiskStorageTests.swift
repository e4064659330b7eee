import Foundation
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore

/// A ``DiskStorage`` kept in a dictionary that records every call, to show which calls
/// ``WebImageCache`` makes of a custom disk tier.
final class InMemoryDiskStorage: DiskStorage {
    private struct State {
        var entries: [String: DiskStorageEntry] = [:]
        var calls: [String] = []
        var failWrites = false
        var sweptAt: Date?
    }

    private let state = Locked(State())

    /// The calls made so far, as `"name key"` (or `"name"`).
    var calls: [String] { state.withLock { $0.calls } }
    /// The reference date of the last sweep.
    var sweptAt: Date? { state.withLock { $0.sweptAt } }
    /// When `true`, writes throw a cache failure.
    var failWrites: Bool {
        get { state.withLock { $0.failWrites } }
        set { state.withLock { $0.failWrites = newValue } }
    }

    private func record<Result>(_ call: String, _ body: (inout State) throws -> Result) rethrows -> Result {
        try state.withLock { state in
            state.calls.append(call)
            return try body(&state)
        }
    }

    func entry(forKey key: String) -> DiskStorageEntry? { record("entry \(key)") { $0.entries[key] } }
    func data(forKey key: String) -> Data? { record("data \(key)") { $0.entries[key]?.data } }
    func containsData(forKey key: String) -> Bool { record("contains \(key)") { $0.entries[key] != nil } }

    func setData(_ data: Data, forKey key: String, extendedData: Data?) throws {
        try record("set \(key)") { state in
            if state.failWrites { throw WebImageError(.cacheFailure, "in-memory storage refuses key \(key)") }
            state.entries[key] = DiskStorageEntry(data: data, extendedData: extendedData)
        }
    }

    func removeData(forKey key: String) { record("remove \(key)") { _ = $0.entries.removeValue(forKey: key) } }
    func removeAll() { record("removeAll") { $0.entries.removeAll() } }
    func totalSize() -> Int { record("totalSize") { $0.entries.values.reduce(0) { $0 + $1.data.count + ($1.extendedData?.count ?? 0) } } }
    func totalCount() -> Int { record("totalCount") { $0.entries.count } }

    func removeExpiredData(referenceDate: Date) -> Int {
        record("removeExpired") { state in
            state.sweptAt = referenceDate
            return 0
        }
    }
}

/// ``WebImageCache`` over a custom ``DiskStorage``: every disk call goes to it, the disk
/// fields of the config stay out of it, and the cache passes the contract suite.
@Suite struct DiskStorageTests {
    let root = TestDirectory()

    init() {
        RawBitmapCoder.registerFormat()
    }

    static let image = TestImages.still(width: 9, height: 7, seed: 5)
    static var data: Data { try! RawBitmapCoder().encode(image, as: .rawBitmap) }

    func makeCache(_ storage: InMemoryDiskStorage, inMemory: Bool = true) -> WebImageCache {
        WebImageCache(diskStorage: storage, config: WebImageCache.Config(shouldCacheImagesInMemory: inMemory), coder: RawBitmapCoder())
    }

    @Test func storeQueryContainsRemoveAndClearGoToTheStorage() async throws {
        let storage = InMemoryDiskStorage()
        let cache = makeCache(storage, inMemory: false)
        var image = Self.image
        image.extendedData = Data("ext".utf8)
        try await cache.store(image, data: Self.data, forKey: "k")
        #expect(storage.calls == ["set k"])
        #expect(storage.entry(forKey: "k") == DiskStorageEntry(data: Self.data, extendedData: Data("ext".utf8)))

        let hit = try #require(await cache.queryImage(forKey: "k"))
        #expect(hit.cacheType == .disk && hit.data == Self.data)
        #expect(hit.image?.pixelSize == Self.image.pixelSize && hit.image?.extendedData == Data("ext".utf8))
        #expect(storage.calls.last == "entry k")
        let syncHit = await cache.queryImage(forKey: "k", options: .queryDiskDataSync, context: WebImageContext(), cacheType: .all)
        #expect(syncHit?.cacheType == .disk)
        #expect(cache.imageFromDiskCache(forKey: "k")?.pixelSize == Self.image.pixelSize)

        #expect(await cache.containsImage(forKey: "k", cacheType: .all) == .disk)
        #expect(storage.calls.last == "contains k")
        #expect(cache.diskImageDataExists(forKey: "k") && cache.diskImageData(forKey: "k") == Self.data)

        await cache.removeImage(forKey: "k", cacheType: .all)
        #expect(storage.calls.last == "remove k")
        #expect(await cache.queryImage(forKey: "k") == nil)

        try await cache.store(nil, data: Self.data, forKey: "a")
        try await cache.store(nil, data: Self.data, forKey: "b")
        #expect(cache.totalDiskCount() == 2 && cache.totalDiskSize() == 2 * Self.data.count)
        await cache.clear(cacheType: .disk)
        #expect(storage.calls.last == "removeAll")
        #expect(storage.totalCount() == 0)
    }

    @Test func imagesWithoutDataAreEncodedIntoTheStorage() async throws {
        let storage = InMemoryDiskStorage()
        let coder = MockImageCoder(name: "encoder", magic: Array("ENC".utf8), format: .jpeg)
        let cache = WebImageCache(diskStorage: storage, coder: coder)
        try await cache.store(WebImage(bitmap: TestImages.gradient(alpha: false)), forKey: "k")
        #expect(coder.calls.all == [.encode(format: .jpeg)])
        #expect(cache.imageFromMemoryCache(forKey: "k") != nil)
        #expect(storage.data(forKey: "k") == Data(Array("ENC".utf8) + Array("encoder".utf8)))
    }

    @Test func badDataInTheStorageIsAMissAndIsRemoved() async throws {
        let storage = InMemoryDiskStorage()
        let cache = makeCache(storage)
        try storage.setData(Data("not an image".utf8), forKey: "k", extendedData: nil)
        #expect(await cache.queryImage(forKey: "k") == nil)
        #expect(storage.calls.last == "remove k")
        #expect(!storage.containsData(forKey: "k"))
    }

    @Test func aFailingWriteThrowsAndTheMemoryTierKeepsTheImage() async throws {
        let storage = InMemoryDiskStorage()
        storage.failWrites = true
        let cache = makeCache(storage)
        let error = await #expect(throws: WebImageError.self) {
            try await cache.store(Self.image, data: Self.data, forKey: "k")
        }
        #expect(error?.code == .cacheFailure)
        #expect(error?.message.contains("stored in memory") == true)
        #expect(cache.imageFromMemoryCache(forKey: "k") != nil)
    }

    @Test func sweepsAreForwardedWithTheCurrentDate() async {
        let storage = InMemoryDiskStorage()
        let cache = makeCache(storage)
        let before = Date()
        #expect(await cache.removeExpiredData() == 0)
        let sweptAt = storage.sweptAt
        #expect(sweptAt != nil && sweptAt! >= before)
    }

    /// A custom storage has no files and no `DiskCache` settings: `diskCache` and `cachePath`
    /// are `nil`, and setting the config touches only the memory tier.
    @Test func diskSettingsStayOutOfACustomStorage() {
        let storage = InMemoryDiskStorage()
        let cache = makeCache(storage)
        #expect(cache.diskStorage === storage)
        #expect(cache.diskCache == nil && cache.cachePath(forKey: "k") == nil)
        #expect(cache.namespace == "custom")
        var config = cache.config
        config.maxDiskSize = 1
        config.memoryCountLimit = 3
        cache.config = config
        #expect(cache.memoryCache.countLimit == 3)
        #expect(cache.config.maxDiskSize == 1)
    }

    /// `diskCache` is an optional, never a trap: `nil` over a custom storage, the storage itself
    /// over a `DiskCache` (given, or made from a directory).
    @Test func diskCacheIsTheDiskTierOnlyWhenItIsADiskCache() {
        let custom: DiskCache? = makeCache(InMemoryDiskStorage()).diskCache
        #expect(custom == nil)
        let disk = DiskCache(directory: root.appending("given"))
        #expect(WebImageCache(diskStorage: disk).diskCache === disk)
        let made = WebImageCache(namespace: "made", directory: root.url)
        #expect(made.diskCache?.directory.lastPathComponent == "made")
        #expect(made.diskCache === made.diskStorage as? DiskCache)
    }

    /// A `DiskCache` given as the storage takes the disk fields of the config, at init and on
    /// every change, as with the directory initializer.
    @Test func aDiskCacheStorageTakesTheDiskSettings() throws {
        let disk = DiskCache(directory: root.appending("disk"), config: DiskCache.Config(sizeLimit: 5))
        let cache = WebImageCache(namespace: "n", diskStorage: disk, config: WebImageCache.Config(maxDiskSize: 777, diskExpireType: .creationDate))
        #expect(disk.config.sizeLimit == 777 && disk.config.expireType == .creationDate)
        #expect(cache.diskCache === disk)
        #expect(try #require(cache.cachePath(forKey: "k")) == disk.fileURL(forKey: "k"))
        var config = cache.config
        config.maxDiskAge = 42
        cache.config = config
        #expect(disk.config.maxAge == 42)
    }

    @Test(arguments: [true, false], ImageCacheContract.Check.allCases)
    func contract(_ inMemory: Bool, _ check: ImageCacheContract.Check) async throws {
        try await ImageCacheContract.verify(check, on: makeCache(InMemoryDiskStorage(), inMemory: inMemory))
    }
}
