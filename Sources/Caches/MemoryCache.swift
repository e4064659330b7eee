public import Foundation
public import WebImageCore

/// The in-memory tier: decoded images (and, optionally, their data) by key, with a total cost
/// limit in bytes, a count limit, and strict least-recently-used eviction (SDWebImage's
/// `SDMemoryCache`, Nuke's `ImageCache`; unlike `NSCache`, the eviction order is guaranteed).
///
/// - Get, set and remove are O(1): a dictionary over an index-linked list.
/// - The cost of an entry is its image's ``/WebImageCore/WebImage/memoryCost`` plus the byte count of its
///   data. After every set, entries are evicted least recently used first until both limits
///   hold. An entry whose cost alone is over ``costLimit`` is not stored (it would evict
///   everything and still not fit), and an older entry under the same key is removed.
/// - ``image(forKey:)`` and ``entry(forKey:)`` make the entry the most recently used;
///   ``contains(_:)`` does not.
///
/// Thread-safety: every member may be called from any thread, concurrently. State sits in a
/// `Locked`; evicted values are released after the lock is dropped, so no deinitializer runs
/// under it.
///
/// As an ``/WebImageCore/ImageCache`` it is a one-tier cache: it answers for ``/WebImageCore/ImageCacheType/memory`` (and
/// `.all`), ignores `.disk`, and keeps the data given to `store` alongside the image.
public final class MemoryCache: Sendable {
    /// What the cache holds for a key: an image, its encoded data, or both.
    public struct Entry: Sendable {
        /// The decoded image.
        public var image: WebImage?
        /// The encoded data.
        public var data: Data?

        /// An entry holding `image` and, optionally, its encoded `data`.
        /// - Parameters:
        ///   - image: The decoded image.
        ///   - data: The encoded data.
        public init(image: WebImage?, data: Data? = nil) {
            self.image = image
            self.data = data
        }

        /// The bytes the entry holds: the image's ``/WebImageCore/WebImage/memoryCost`` plus the data's size.
        public var cost: Int {
            (image?.memoryCost ?? 0) + (data?.count ?? 0)
        }
    }

    private struct State {
        var storage = LRUStorage<Entry>()
        var costLimit: Int
        var countLimit: Int

        /// Evicts least recently used entries until both limits hold.
        mutating func enforceLimits(into released: inout [Entry]) {
            while storage.totalCost > costLimit || storage.count > countLimit,
                  let evicted = storage.removeLeastRecentlyUsed() {
                released.append(evicted)
            }
        }
    }

    private let state: Locked<State>

    /// The default cost limit: 20% of the physical memory (10% on machines with 1 GiB or
    /// less), capped at 512 MiB, at least 16 MiB. Decision: a fixed fraction as Nuke does, with
    /// a cap so that a server with 24 GiB does not hold 5 GiB of decoded images by default.
    public static var defaultCostLimit: Int {
        let physical = ProcessInfo.processInfo.physicalMemory
        let ratio: UInt64 = physical <= 1 << 30 ? 10 : 5
        let limit = physical / ratio
        return Int(min(max(limit, 16 << 20), 512 << 20))
    }

    /// The default count limit: none (`Int.max`); the cost limit bounds the memory.
    public static let defaultCountLimit = Int.max

    /// Creates an empty cache.
    /// - Parameters:
    ///   - costLimit: The most bytes held at once (default ``defaultCostLimit``); negative
    ///     values count as 0.
    ///   - countLimit: The most entries held at once (default ``defaultCountLimit``); negative
    ///     values count as 0.
    public init(costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int = MemoryCache.defaultCountLimit) {
        state = Locked(State(costLimit: max(0, costLimit), countLimit: max(0, countLimit)))
    }

    /// The most bytes held at once. Lowering it evicts at once.
    public var costLimit: Int {
        get { state.withLock { $0.costLimit } }
        set {
            let released = state.withLock { state -> [Entry] in
                state.costLimit = max(0, newValue)
                var released: [Entry] = []
                state.enforceLimits(into: &released)
                return released
            }
            _ = released
        }
    }

    /// The most entries held at once. Lowering it evicts at once.
    public var countLimit: Int {
        get { state.withLock { $0.countLimit } }
        set {
            let released = state.withLock { state -> [Entry] in
                state.countLimit = max(0, newValue)
                var released: [Entry] = []
                state.enforceLimits(into: &released)
                return released
            }
            _ = released
        }
    }

    /// The sum of the costs of the entries held.
    public var totalCost: Int {
        state.withLock { $0.storage.totalCost }
    }

    /// The number of entries held.
    public var totalCount: Int {
        state.withLock { $0.storage.count }
    }

    /// The keys held, from the next to be evicted (least recently used) to the most recently
    /// used. For inspection and tests; O(n).
    package var keysInEvictionOrder: [String] {
        state.withLock { $0.storage.keysFromLeastRecentlyUsed }
    }

    /// The image for `key`, which becomes the most recently used entry.
    /// - Returns: The image, or `nil` on a miss or when the entry holds data only.
    public func image(forKey key: String) -> WebImage? {
        state.withLock { state -> WebImage? in
            guard let slot = state.storage.touch(key) else { return nil }
            return state.storage[slot: slot]?.image
        }
    }

    /// The entry for `key`, which becomes the most recently used.
    public func entry(forKey key: String) -> Entry? {
        state.withLock { $0.storage.value(forKey: key) }
    }

    /// Whether `key` is held. Does not change the eviction order.
    public func contains(_ key: String) -> Bool {
        state.withLock { $0.storage.contains(key) }
    }

    /// Stores `image` under `key` with its ``/WebImageCore/WebImage/memoryCost`` as cost, then evicts least
    /// recently used entries until the limits hold.
    /// - Returns: Whether the image was stored (`false` when its cost alone is over the limit).
    @discardableResult
    public func setImage(_ image: WebImage, forKey key: String) -> Bool {
        setEntry(Entry(image: image), forKey: key)
    }

    /// Stores `entry` under `key`, then evicts least recently used entries until the limits hold.
    /// - Parameters:
    ///   - entry: What to store.
    ///   - key: The key.
    ///   - cost: The entry's cost; default ``Entry/cost``. Negative values count as 0.
    /// - Returns: Whether the entry was stored (`false` when its cost alone is over
    ///   ``costLimit``, or ``countLimit`` is 0; any older entry under `key` is removed then).
    @discardableResult
    public func setEntry(_ entry: Entry, forKey key: String, cost: Int? = nil) -> Bool {
        let cost = max(0, cost ?? entry.cost)
        let (stored, released) = state.withLock { state -> (Bool, [Entry]) in
            var released: [Entry] = []
            guard cost <= state.costLimit, state.countLimit > 0 else {
                if let old = state.storage.removeValue(forKey: key) { released.append(old) }
                return (false, released)
            }
            if let old = state.storage.set(entry, forKey: key, cost: cost) { released.append(old) }
            state.enforceLimits(into: &released)
            return (true, released)
        }
        _ = released  // released here, after the lock
        return stored
    }

    /// Removes the entry for `key`.
    /// - Returns: The removed entry, if there was one.
    @discardableResult
    public func removeEntry(forKey key: String) -> Entry? {
        state.withLock { $0.storage.removeValue(forKey: key) }
    }

    /// Removes every entry.
    public func removeAll() {
        let old = state.withLock { state -> LRUStorage<Entry> in
            let old = state.storage
            state.storage = LRUStorage()
            return old
        }
        _ = old  // released here, after the lock
    }

    /// Evicts least recently used entries until the total cost is at most `cost`. The limit
    /// itself is unchanged.
    public func trim(toCost cost: Int) {
        let released = state.withLock { state -> [Entry] in
            var released: [Entry] = []
            while state.storage.totalCost > max(0, cost), let evicted = state.storage.removeLeastRecentlyUsed() {
                released.append(evicted)
            }
            return released
        }
        _ = released
    }

    /// Evicts least recently used entries until at most `count` remain. The limit itself is
    /// unchanged.
    public func trim(toCount count: Int) {
        let released = state.withLock { state -> [Entry] in
            var released: [Entry] = []
            while state.storage.count > max(0, count), let evicted = state.storage.removeLeastRecentlyUsed() {
                released.append(evicted)
            }
            return released
        }
        _ = released
    }
}
