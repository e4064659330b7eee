import Foundation
import Synchronization
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore

/// Eight tasks reading and writing the same keys at once (run under `--sanitize=thread` by CI
/// and the lead): nothing crashes or races, and every read sees exactly one of the values
/// written, never a mix or a partial file.
@Suite(.onOwnThreads) struct ConcurrencyTests {
    let root = TestDirectory()
    static let taskCount = 8
    static let iterations = 150
    static let keys = (0..<4).map { "shared-key-\($0).wiraw" }

    init() {
        RawBitmapCoder.registerFormat()
    }

    /// The variants written: distinct sizes, so a read tells which one it got.
    static let variants: [WebImage] = (0..<4).map { TestImages.still(width: 4 + $0, height: 3, seed: UInt8($0 * 40)) }
    static let variantData: [Data] = variants.map { try! RawBitmapCoder().encode($0, as: .rawBitmap) }

    static func isVariant(_ image: WebImage?) -> Bool {
        guard let image else { return false }
        return variants.contains { $0.bitmap == image.bitmap }
    }

    @Test func memoryCache() async {
        let cache = MemoryCache(costLimit: 400, countLimit: 3)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var random = SeededRandom(seed: UInt64(task))
                    for _ in 0..<Self.iterations * 10 {
                        let key = Self.keys[random.next(upTo: Self.keys.count)]
                        switch random.next(upTo: 5) {
                        case 0, 1: cache.setImage(Self.variants[random.next(upTo: Self.variants.count)], forKey: key)
                        case 2: cache.removeEntry(forKey: key)
                        case 3: _ = cache.keysInEvictionOrder
                        default:
                            if let image = cache.image(forKey: key) { #expect(Self.isVariant(image)) }
                        }
                        #expect(cache.totalCount <= 3)
                    }
                }
            }
        }
        #expect(cache.totalCost <= 400)
    }

    @Test func diskCache() async throws {
        let cache = DiskCache(directory: root.appending("disk"), config: DiskCache.Config(sizeLimit: 500))
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var random = SeededRandom(seed: UInt64(task) + 100)
                    for _ in 0..<Self.iterations {
                        let key = Self.keys[random.next(upTo: Self.keys.count)]
                        switch random.next(upTo: 6) {
                        case 0, 1:
                            let variant = random.next(upTo: Self.variantData.count)
                            try? cache.setData(Self.variantData[variant], forKey: key, extendedData: Data([UInt8(variant)]))
                        case 2: cache.removeData(forKey: key)
                        case 3: _ = cache.totalSize()
                        default:
                            if let entry = cache.entry(forKey: key) {
                                #expect(Self.variantData.contains(entry.data), "a read saw bytes no writer wrote")
                            }
                        }
                    }
                }
            }
        }
        #expect(cache.totalSize() <= 500)
    }

    @Test func webImageCache() async throws {
        let cache = WebImageCache(
            namespace: "concurrent",
            directory: root.url,
            config: WebImageCache.Config(memoryCostLimit: 300, maxDiskSize: 600),
            coder: RawBitmapCoder()
        )
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var random = SeededRandom(seed: UInt64(task) + 200)
                    for _ in 0..<Self.iterations {
                        let key = Self.keys[random.next(upTo: Self.keys.count)]
                        let variant = random.next(upTo: Self.variants.count)
                        switch random.next(upTo: 8) {
                        case 0, 1: try? await cache.store(Self.variants[variant], data: Self.variantData[variant], forKey: key)
                        case 2: try? await cache.store(nil, data: Self.variantData[variant], forKey: key, cacheType: .disk)
                        case 3: await cache.removeImage(forKey: key, cacheType: random.next(upTo: 2) == 0 ? .memory : .all)
                        case 4: _ = await cache.containsImage(forKey: key, cacheType: .all)
                        case 5:
                            if let hit = await cache.queryImage(forKey: key, options: .queryDiskDataSync, context: WebImageContext(), cacheType: .all) {
                                #expect(Self.isVariant(hit.image))
                            }
                        default:
                            if let hit = await cache.queryImage(forKey: key, options: .queryMemoryData, context: WebImageContext(), cacheType: .all) {
                                #expect(Self.isVariant(hit.image))
                                if let data = hit.data { #expect(Self.variantData.contains(data)) }
                            }
                        }
                    }
                }
            }
        }
        #expect(cache.totalDiskSize() <= 600)
        #expect(cache.memoryCache.totalCost <= 300)
    }

    /// A writer thread rewrites a key with two large payloads in turn while this task reads
    /// it: every read is exactly one payload, never an empty, short or mixed file (atomic
    /// writes). The writer runs on a thread of its own so that reader and writer overlap even
    /// when the Swift concurrency pool is busy with other tests.
    @Test func readersNeverSeeAPartialFile() async throws {
        let cache = DiskCache(directory: root.appending("atomic"))
        let payloads = [Data(repeating: 0xAA, count: 4 << 20), Data(repeating: 0x55, count: 3 << 20)]
        try cache.setData(payloads[0], forKey: "big")
        let writing = WriterFlag.start {
            for index in 0..<60 { try? cache.setData(payloads[index % 2], forKey: "big") }
        }
        var reads = 0
        var torn: [Int] = []
        while !writing.isFinished || reads < 10 {
            let data = cache.data(forKey: "big")
            if data != payloads[0] && data != payloads[1] { torn.append(data?.count ?? -1) }
            reads += 1
        }
        #expect(torn.isEmpty, "\(torn.count) of \(reads) reads saw a file no writer wrote whole (sizes \(torn.prefix(5)))")
    }

    /// Sidecar mode: a writer thread rewrites a key, each write with its own extended data
    /// (every third with none), while this task reads the entry. Every read pairs the data
    /// with the extended data of the same write, or is a miss; never another write's.
    /// The payloads all have the same size, so that the size alone cannot tell them apart.
    @Test func sidecarReadersNeverPairDataWithAnotherWritesExtendedData() async throws {
        let cache = DiskCache(directory: root.appending("sidecar"), config: DiskCache.Config(extendedDataStorage: .sidecar))
        try cache.setData(Self.payload(0), forKey: "k", extendedData: Self.extendedData(0))
        let writing = WriterFlag.start {
            for index in 1...400 { try? cache.setData(Self.payload(index), forKey: "k", extendedData: Self.extendedData(index)) }
        }
        var reads = 0
        var misses = 0
        var mixed: [String] = []
        while !writing.isFinished || reads < 10 {
            reads += 1
            guard let entry = cache.entry(forKey: "k") else {
                misses += 1
                continue
            }
            let index = Self.payloadIndex(entry.data)
            if entry.extendedData != Self.extendedData(index) {
                mixed.append("data #\(index) with \(entry.extendedData.map { String(decoding: $0, as: UTF8.self) } ?? "none")")
            }
        }
        #expect(mixed.count == 0, "\(mixed.count) of \(reads) reads (\(misses) misses) paired data with another write's extended data: \(mixed.prefix(5))")
        #expect(cache.entry(forKey: "k") == DiskStorageEntry(data: Self.payload(400), extendedData: Self.extendedData(400)))
    }

    /// 64 KiB that say which write they are (the index in the last 8 bytes).
    static func payload(_ index: Int) -> Data {
        Data(repeating: UInt8(index % 251), count: 64 << 10) + withUnsafeBytes(of: UInt64(index).littleEndian) { Data($0) }
    }

    static func payloadIndex(_ data: Data) -> Int {
        Int(UInt64(littleEndian: data.suffix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
    }

    /// The extended data of write `index`: none for every third.
    static func extendedData(_ index: Int) -> Data? {
        index % 3 == 2 ? nil : Data("extended \(index)".utf8)
    }
}

/// A flag a writer thread raises when it is done.
final class WriterFlag: Sendable {
    private let done = Atomic<Bool>(false)
    var isFinished: Bool { done.load(ordering: .acquiring) }
    func finish() { done.store(true, ordering: .releasing) }

    /// Runs `body` on a new thread of its own and raises the flag when it returns. Not on a
    /// dispatch queue: on a 2-core machine two tests spinning in reader loops hold both
    /// threads of the shared pool, and a writer queued there never runs (seen: a hang).
    static func start(_ body: @escaping @Sendable () -> Void) -> WriterFlag {
        let flag = WriterFlag()
        Thread {
            body()
            flag.finish()
        }.start()
        return flag
    }
}
