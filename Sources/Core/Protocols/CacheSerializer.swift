public import Foundation

/// Chooses the data a cache stores on disk for a loaded image (SDWebImage's
/// `SDWebImageCacheSerializer`), for example to re-encode a large PNG as JPEG.
public protocol CacheSerializer: Sendable {
    /// The data to store for `image`, given the data it was loaded from (if any);
    /// `nil` stores no data (the cache may then encode the image itself).
    func cacheData(for image: WebImage, originalData: Data?, url: URL?) -> Data?
}

/// A cache serializer made of a closure.
public struct ClosureCacheSerializer: CacheSerializer {
    private let body: @Sendable (WebImage, Data?, URL?) -> Data?
    /// A serializer that calls `body` with the image, its original data and its URL.
    public init(_ body: @escaping @Sendable (WebImage, Data?, URL?) -> Data?) { self.body = body }
    public func cacheData(for image: WebImage, originalData: Data?, url: URL?) -> Data? {
        body(image, originalData, url)
    }
}

extension CacheSerializer where Self == ClosureCacheSerializer {
    /// `.closure { image, data, url in ... }`
    public static func closure(_ body: @escaping @Sendable (WebImage, Data?, URL?) -> Data?) -> ClosureCacheSerializer {
        ClosureCacheSerializer(body)
    }
}
