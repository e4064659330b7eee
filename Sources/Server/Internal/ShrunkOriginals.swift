import WebImageCaches
import WebImageCore

/// The reduced decodes of shrink-on-load requests (``ShrinkOnLoad``), with their sources' full
/// sizes, by the original's key and the plan part they cover (``ShrinkOnLoad/variantKey(for:)``):
/// a later request with the same plan part starts from the reduced image without reading the
/// source again. Kept apart from the originals' cache on purpose: a reduced image must never
/// answer a request under the original's key, and a whole original kept there must not stand
/// in for a reduced decode (its resize would not be thumbor's `draft`). Least recently used
/// dropped first once their bytes pass the capacity.
final class ShrunkOriginals: Sendable {
    /// A reduced decode and the full upright size of its source.
    struct Entry: Sendable {
        var image: WebImage
        var sourceSize: PixelSize
    }

    let capacity: Int
    private let state = Locked(LRUStorage<Entry>())

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The entry for `key`.
    func entry(forKey key: String) -> Entry? {
        state.withLock { $0.value(forKey: key) }
    }

    /// Keeps `entry` under `key` (nothing when it alone is over the capacity).
    func store(_ entry: Entry, forKey key: String) {
        let cost = entry.image.memoryCost
        guard capacity > 0, cost <= capacity else { return }
        let dropped = state.withLock { state -> [Entry] in
            var dropped: [Entry] = []
            if let replaced = state.set(entry, forKey: key, cost: cost) { dropped.append(replaced) }
            while state.totalCost > capacity, let oldest = state.removeLeastRecentlyUsed() {
                dropped.append(oldest)
            }
            return dropped
        }
        withExtendedLifetime(dropped) {}
    }

    /// The entries and bytes held (for tests).
    var usage: (count: Int, cost: Int) { state.withLock { ($0.count, $0.totalCost) } }
}
