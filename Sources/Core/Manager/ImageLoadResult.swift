public import Foundation

/// What ``ImageManager`` delivers for a finished request.
public struct ImageLoadResult: Sendable {
    /// The image: decoded, thumbnailed and transformed as the request asked. `nil` only with
    /// `avoidDecodeImage`, where ``data`` carries the result.
    public var image: WebImage?
    /// The data the image was decoded from, when known (`nil` for a transformed image, whose
    /// pixels no longer match any data).
    public var data: Data?
    /// Where the image came from: `.memory` or `.disk` for a cache hit (for a transformed
    /// image made from a cached original, the original's tier), `.none` for a fresh load.
    public var cacheType: ImageCacheType
    /// The requested URL.
    public var url: URL
    /// The cache key the image is stored under.
    public var cacheKey: String

    /// A result with every field given.
    public init(image: WebImage?, data: Data?, cacheType: ImageCacheType, url: URL, cacheKey: String) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.url = url
        self.cacheKey = cacheKey
    }
}

/// An event of a running ``ImageManager`` request, before its result.
public enum ImageLoadEvent: Sendable {
    /// Bytes received so far and expected (`nil` when unknown).
    case progress(receivedBytes: Int64, expectedBytes: Int64?)
    /// A partial image from the data so far (`progressiveLoad`); the result follows.
    case partialImage(WebImage)
    /// With `refreshCached`: the cached image, delivered before the loader is asked again.
    /// The result is the fresh image, or this one again if the server says "not modified".
    case cachedImage(ImageLoadResult)
}

/// Receives the events of a running request.
public typealias ImageLoadEventHandler = @Sendable (ImageLoadEvent) -> Void

/// One element of ``ImageManager/updates(for:options:context:)``: the events of a request,
/// then its result.
public enum ImageLoadUpdate: Sendable {
    /// Progress, a partial image, or the cached image of a `refreshCached` request.
    case event(ImageLoadEvent)
    /// The result; the sequence ends after it.
    case finished(ImageLoadResult)
}
