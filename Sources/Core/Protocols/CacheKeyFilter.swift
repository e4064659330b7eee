public import Foundation

/// Turns a URL into a cache key (SDWebImage's `SDWebImageCacheKeyFilter`). Use it to drop
/// volatile query items (signatures, tokens) so that one image has one key.
public protocol CacheKeyFilter: Sendable {
    /// The cache key for `url`, or `nil` to use `url.absoluteString`.
    func cacheKey(for url: URL) -> String?
}

/// A cache key filter made of a closure.
public struct ClosureCacheKeyFilter: CacheKeyFilter {
    private let body: @Sendable (URL) -> String?
    /// A filter that calls `body` for each URL.
    public init(_ body: @escaping @Sendable (URL) -> String?) { self.body = body }
    public func cacheKey(for url: URL) -> String? { body(url) }
}

extension CacheKeyFilter where Self == ClosureCacheKeyFilter {
    /// `.closure { url in ... }`
    public static func closure(_ body: @escaping @Sendable (URL) -> String?) -> ClosureCacheKeyFilter {
        ClosureCacheKeyFilter(body)
    }
}
