#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// The responses kept for `refreshCached` revalidation: the configuration's `URLCache`, or
/// else an in-memory store of a byte capacity, the least recently stored dropped first.
final class ResponseStore: Sendable {
    private struct Memory {
        var entries: [URL: CachedURLResponse] = [:]
        var order: [URL] = []
        var bytes = 0
    }

    private let cache: URLCache?
    private let capacity: Int
    private let memory = Locked(Memory())

    /// `nil` when revalidation is off (no URL cache and no capacity).
    init?(cache: URLCache?, capacity: Int) {
        guard cache != nil || capacity > 0 else { return nil }
        self.cache = cache
        self.capacity = capacity
    }

    func response(for url: URL) -> CachedURLResponse? {
        if let cache { return cache.cachedResponse(for: URLRequest(url: url)) }
        return memory.withLock { $0.entries[url] }
    }

    func store(_ response: CachedURLResponse, for url: URL) {
        if let cache {
            cache.storeCachedResponse(response, for: URLRequest(url: url))
            return
        }
        let size = response.data.count
        guard size <= capacity else { return }
        memory.withLock { memory in
            if let old = memory.entries.removeValue(forKey: url) {
                memory.bytes -= old.data.count
                memory.order.removeAll { $0 == url }
            }
            while memory.bytes + size > capacity, !memory.order.isEmpty {
                let oldest = memory.order.removeFirst()
                memory.bytes -= memory.entries.removeValue(forKey: oldest)?.data.count ?? 0
            }
            memory.entries[url] = response
            memory.order.append(url)
            memory.bytes += size
        }
    }
}
