import WebImageCaches
import WebImageCore

/// The full upright sizes of sources decoded at a reduced size (``ShrinkOnLoad``), by their
/// original's cache key: a reduced image found in the originals' memory cache is planned on its
/// source's size, not its own (thumbor's sizes are computed from the source's). At most
/// `capacity` entries, least recently used dropped first; a size that was dropped is read
/// again from the headers at the source's next decode, and until then the reduced image's own
/// size stands in (a plan may then differ by a rounding).
final class SourceSizes: Sendable {
    let capacity: Int
    private let state = Locked(LRUStorage<PixelSize>())

    init(capacity: Int = 65_536) {
        self.capacity = max(1, capacity)
    }

    /// Remembers `size` for the original `key`.
    func record(_ size: PixelSize, forKey key: String) {
        state.withLock { state in
            _ = state.set(size, forKey: key, cost: 1)
            while state.count > capacity, state.removeLeastRecentlyUsed() != nil {}
        }
    }

    /// The size recorded for `key`.
    func size(forKey key: String) -> PixelSize? {
        state.withLock { $0.value(forKey: key) }
    }
}
