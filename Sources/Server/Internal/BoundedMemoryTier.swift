import WebImageCaches
import WebImageCore

/// A memory tier of the server's own: least recently used entries go first once the total cost
/// passes the capacity (the memory cache's ``LRUStorage``, O(1) per operation). Lookups take one
/// lock and move the entry to the front. Dropped entries are freed after the lock is released.
/// The encoded results (``ResultMemoryTier``: the hit path of a repeated URL is this lookup and
/// nothing else) and the reduced decodes of shrink-on-load (``ShrunkOriginals``) are kept so.
///
/// Thread-safety: every method may be called from any thread.
final class BoundedMemoryTier<Value: Sendable>: Sendable {
    /// The most cost (bytes) held.
    let capacity: Int
    private let state = Locked(LRUStorage<Value>())

    /// A tier of `capacity` bytes (0 holds nothing).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The entry for `key`, made the most recently used.
    func value(forKey key: String) -> Value? {
        guard capacity > 0 else { return nil }
        return state.withLock { $0.value(forKey: key) }
    }

    /// Stores `value` under `key` (replacing an older entry), then drops the least recently used
    /// entries until the total is within the capacity. An entry larger than the capacity is not kept.
    func set(_ value: Value, forKey key: String, cost: Int) {
        guard cost <= capacity else { return }
        let dropped = state.withLock { state -> [Value] in
            var dropped: [Value] = []
            if let replaced = state.set(value, forKey: key, cost: cost) { dropped.append(replaced) }
            // The new entry is the most recent and fits alone, so it is never the one dropped.
            while state.totalCost > capacity, let oldest = state.removeLeastRecentlyUsed() {
                dropped.append(oldest)
            }
            return dropped
        }
        withExtendedLifetime(dropped) {}
    }

    /// The number of entries and their total cost.
    var usage: (count: Int, cost: Int) {
        state.withLock { ($0.count, $0.totalCost) }
    }
}

/// The server's memory tier of encoded results, in front of the result cache.
typealias ResultMemoryTier = BoundedMemoryTier<EncodedResult>

extension BoundedMemoryTier where Value == EncodedResult {
    /// Stores `value` at its own cost (``EncodedResult/cost``).
    func set(_ value: EncodedResult, forKey key: String) {
        set(value, forKey: key, cost: value.cost)
    }
}
