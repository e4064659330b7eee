import Foundation
import Synchronization

/// The URLs that failed in a way that blocks them (SDWebImage's `failedURLs`).
final class FailedURLSet: Sendable {
    private let urls = Locked<Set<URL>>([])
    /// The number of URLs, kept equal to `urls.count` (written under the lock): ``isEmpty`` is
    /// one atomic load, so the memory fast path hashes no URL while nothing is blocked.
    private let count = Atomic<Int>(0)

    /// Whether no URL is blocked.
    var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    func contains(_ url: URL) -> Bool { !isEmpty && urls.withLock { $0.contains(url) } }
    func insert(_ url: URL) { urls.withLock { _ = $0.insert(url); count.store($0.count, ordering: .relaxed) } }
    func remove(_ url: URL) { urls.withLock { _ = $0.remove(url); count.store($0.count, ordering: .relaxed) } }
    func removeAll() { urls.withLock { $0.removeAll(); count.store(0, ordering: .relaxed) } }
    var all: Set<URL> { urls.withLock { $0 } }
}
