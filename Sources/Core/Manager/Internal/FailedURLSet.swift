import Foundation

/// The URLs that failed in a way that blocks them (SDWebImage's `failedURLs`).
final class FailedURLSet: Sendable {
    private let urls = Locked<Set<URL>>([])

    func contains(_ url: URL) -> Bool { urls.withLock { $0.contains(url) } }
    func insert(_ url: URL) { urls.withLock { _ = $0.insert(url) } }
    func remove(_ url: URL) { urls.withLock { _ = $0.remove(url) } }
    func removeAll() { urls.withLock { $0.removeAll() } }
    var all: Set<URL> { urls.withLock { $0 } }
}
