import Foundation
import Synchronization
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore

/// ``MemoryCache``: strict LRU order, cost and count limits after every store, trimming, and
/// releasing evicted images outside the lock.
@Suite struct MemoryCacheTests {
    /// An image whose ``WebImage/memoryCost`` is `4 * pixels` bytes.
    static func image(pixels: Int, seed: UInt8 = 1) -> WebImage {
        TestImages.still(width: pixels, height: 1, seed: seed)
    }

    @Test func leastRecentlyUsedIsEvictedFirst() {
        let cache = MemoryCache(costLimit: 1 << 20, countLimit: 3)
        for key in ["a", "b", "c"] { cache.setImage(Self.image(pixels: 1), forKey: key) }
        #expect(cache.keysInEvictionOrder == ["a", "b", "c"])
        #expect(cache.image(forKey: "a") != nil)  // a becomes the most recent
        #expect(cache.keysInEvictionOrder == ["b", "c", "a"])
        cache.setImage(Self.image(pixels: 1), forKey: "d")
        #expect(cache.keysInEvictionOrder == ["c", "a", "d"])
        #expect(cache.image(forKey: "b") == nil, "b was the least recently used")
        // Overwriting makes the key the most recent too.
        cache.setImage(Self.image(pixels: 1), forKey: "c")
        #expect(cache.keysInEvictionOrder == ["a", "d", "c"])
        // contains does not change the order.
        #expect(cache.contains("a"))
        #expect(cache.keysInEvictionOrder == ["a", "d", "c"])
    }

    @Test func costLimitEvictsInLRUOrder() {
        let cache = MemoryCache(costLimit: 1000)
        cache.setImage(Self.image(pixels: 100), forKey: "a")  // 400 bytes
        cache.setImage(Self.image(pixels: 100), forKey: "b")  // 800
        _ = cache.image(forKey: "a")
        cache.setImage(Self.image(pixels: 100), forKey: "c")  // 1200 > 1000: b goes
        #expect(cache.totalCost == 800)
        #expect(cache.keysInEvictionOrder == ["a", "c"])
    }

    /// A seeded random walk of stores, reads and removals: after every store both limits hold
    /// and the total cost is the sum of what is held.
    @Test(arguments: [(costLimit: 10_000, countLimit: Int.max), (costLimit: Int.max, countLimit: 7), (costLimit: 5_000, countLimit: 12)])
    func limitsHoldAfterEveryStore(_ limits: (costLimit: Int, countLimit: Int)) {
        let cache = MemoryCache(costLimit: limits.costLimit, countLimit: limits.countLimit)
        var random = SeededRandom(seed: 42)
        var costs: [String: Int] = [:]
        for step in 0..<2_000 {
            let key = "k\(random.next(upTo: 40))"
            switch random.next(upTo: 4) {
            case 0, 1:
                let pixels = 1 + random.next(upTo: 600)
                cache.setImage(Self.image(pixels: pixels), forKey: key)
                costs[key] = pixels * 4
                #expect(cache.totalCost <= limits.costLimit, "step \(step)")
                #expect(cache.totalCount <= limits.countLimit, "step \(step)")
            case 2:
                _ = cache.image(forKey: key)
            default:
                cache.removeEntry(forKey: key)
            }
            let held = cache.keysInEvictionOrder
            #expect(held.count == cache.totalCount)
            #expect(cache.totalCost == held.reduce(0) { $0 + (costs[$1] ?? 0) }, "step \(step)")
        }
    }

    /// Thousands of keys stored, read and removed against a plain dictionary as the model: the
    /// cache's own hash index (growth, deleted buckets, rebuilds) never loses or confuses a key.
    @Test func manyKeysMatchAReferenceModel() {
        let cache = MemoryCache(costLimit: .max)
        var model: [String: Int] = [:]
        var random = SeededRandom(seed: 99)
        for step in 0..<30_000 {
            let key = "https://example.com/\(random.next(upTo: 3_000)).png"
            switch random.next(upTo: 3) {
            case 0:
                let pixels = 1 + random.next(upTo: 8)
                cache.setImage(Self.image(pixels: pixels), forKey: key)
                model[key] = pixels
            case 1:
                #expect(cache.removeEntry(forKey: key)?.image?.pixelSize.width == model.removeValue(forKey: key), "step \(step)")
            default:
                #expect(cache.image(forKey: key)?.pixelSize.width == model[key], "step \(step)")
            }
        }
        #expect(cache.totalCount == model.count)
        #expect(Set(cache.keysInEvictionOrder) == Set(model.keys))
        for (key, pixels) in model { #expect(cache.image(forKey: key)?.pixelSize.width == pixels) }
    }

    @Test func entryOverTheLimitIsNotStoredAndDropsTheOldOne() {
        let cache = MemoryCache(costLimit: 1000)
        #expect(cache.setImage(Self.image(pixels: 10), forKey: "a"))
        #expect(cache.setImage(Self.image(pixels: 10), forKey: "b"))
        #expect(!cache.setImage(Self.image(pixels: 300), forKey: "a"), "1200 bytes cannot fit in 1000")
        #expect(cache.image(forKey: "a") == nil, "the stale image must not stay under the key")
        #expect(cache.image(forKey: "b") != nil, "the other entries stay")
    }

    @Test func loweringLimitsAndTrimming() {
        let cache = MemoryCache(costLimit: 1 << 20)
        for index in 0..<10 { cache.setImage(Self.image(pixels: 25), forKey: "k\(index)") }  // 100 bytes each
        cache.trim(toCost: 550)
        #expect(cache.totalCost == 500)
        #expect(cache.keysInEvictionOrder == (5..<10).map { "k\($0)" })
        cache.trim(toCount: 2)
        #expect(cache.keysInEvictionOrder == ["k8", "k9"])
        #expect(cache.costLimit == 1 << 20, "trimming does not change the limit")
        for index in 0..<10 { cache.setImage(Self.image(pixels: 25), forKey: "k\(index)") }
        cache.costLimit = 300
        #expect(cache.totalCost == 300)
        cache.countLimit = 1
        #expect(cache.keysInEvictionOrder == ["k9"])
        cache.removeAll()
        #expect(cache.totalCount == 0 && cache.totalCost == 0)
    }

    @Test func entriesHoldDataAndCountIt() {
        let cache = MemoryCache(costLimit: 1 << 20)
        let data = Data(repeating: 7, count: 123)
        cache.setEntry(MemoryCache.Entry(image: Self.image(pixels: 10), data: data), forKey: "both")
        cache.setEntry(MemoryCache.Entry(image: nil, data: data), forKey: "data")
        #expect(cache.totalCost == 40 + 123 + 123)
        #expect(cache.entry(forKey: "data")?.data == data)
        #expect(cache.image(forKey: "data") == nil)
        cache.setEntry(MemoryCache.Entry(image: nil, data: data), forKey: "custom", cost: 1000)
        #expect(cache.totalCost == 40 + 123 + 123 + 1000)
    }

    @Test func defaultLimitsAreFinite() {
        #expect(MemoryCache.defaultCostLimit >= 16 << 20)
        #expect(MemoryCache.defaultCostLimit <= 512 << 20)
        #expect(MemoryCache().costLimit == MemoryCache.defaultCostLimit)
    }

    /// An evicted image is released after the lock is dropped: its deinitializer (user code,
    /// here an animated image provider's) may call the cache again without deadlocking.
    @Test(.timeLimit(.minutes(1)), .whenThePoolResponds)
    func evictedImagesAreReleasedOutsideTheLock() throws {
        let cache = MemoryCache(costLimit: 1 << 20, countLimit: 1)
        let observed = Locked<[Int]>([])
        do {
            let provider = ReentrantProvider { observed.withLock { $0.append(cache.totalCount) } }
            let animated = WebImage(animatedImage: try AnimatedImage(provider: provider))
            cache.setImage(animated, forKey: "animated")
        }
        cache.setImage(Self.image(pixels: 1), forKey: "still")  // evicts the animated image
        #expect(observed.withLock { $0 } == [1])
    }

    /// A two-frame provider that calls `onDeinit` when it goes away.
    final class ReentrantProvider: AnimatedImageProvider {
        let animatedImageData = Data([1, 2, 3])
        let format = ImageFormat.gif
        let pixelSize = PixelSize(width: 2, height: 2)
        let frameCount = 2
        let loopCount: Int? = 0
        let onDeinit: @Sendable () -> Void

        init(onDeinit: @escaping @Sendable () -> Void) {
            self.onDeinit = onDeinit
        }

        deinit { onDeinit() }

        func duration(at index: Int) -> Double { 0.1 }
        func frame(at index: Int) throws -> Bitmap { try Bitmap(width: 2, height: 2, fill: .white) }
    }
}

/// A small deterministic generator (SplitMix64), so that random walks replay exactly.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number in `0..<bound`.
    mutating func next(upTo bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
