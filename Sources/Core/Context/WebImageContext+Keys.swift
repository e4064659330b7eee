/// The built-in context keys, one per entry of SDWebImage's `SDWebImageContextOption` list
/// that makes sense off Apple platforms. Use the typed properties on ``WebImageContext``.
public enum WebImageContextKeys {
    /// The key of ``WebImageContext/imageCache``: changes what is loaded, cached or stored.
    public enum ImageCache: WebImageContextKey {
        public typealias Value = any WebImageCore.ImageCache
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/imageLoader``: changes what is loaded, cached or stored.
    public enum ImageLoader: WebImageContextKey {
        public typealias Value = any WebImageCore.ImageLoader
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/imageCoder``: changes the decode.
    public enum ImageCoder: WebImageContextKey {
        public typealias Value = any WebImageCore.ImageCoder
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imageTransformer``: changes what is loaded, cached or stored.
    public enum ImageTransformer: WebImageContextKey {
        public typealias Value = any WebImageCore.ImageTransformer
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/cacheKeyFilter``: changes what is loaded, cached or stored.
    public enum CacheKeyFilter: WebImageContextKey {
        public typealias Value = any WebImageCore.CacheKeyFilter
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/cacheSerializer``: changes what is loaded, cached or stored.
    public enum CacheSerializer: WebImageContextKey {
        public typealias Value = any WebImageCore.CacheSerializer
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/queryCacheType``: changes what is loaded, cached or stored.
    public enum QueryCacheType: WebImageContextKey {
        public typealias Value = ImageCacheType
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/storeCacheType``: changes what is loaded, cached or stored.
    public enum StoreCacheType: WebImageContextKey {
        public typealias Value = ImageCacheType
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/originalQueryCacheType``: changes what is loaded, cached or stored.
    public enum OriginalQueryCacheType: WebImageContextKey {
        public typealias Value = ImageCacheType
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/originalStoreCacheType``: changes what is loaded, cached or stored.
    public enum OriginalStoreCacheType: WebImageContextKey {
        public typealias Value = ImageCacheType
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/originalImageCache``: changes what is loaded, cached or stored.
    public enum OriginalImageCache: WebImageContextKey {
        public typealias Value = any WebImageCore.ImageCache
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/imageScaleFactor``: changes the decode.
    public enum ImageScaleFactor: WebImageContextKey {
        public typealias Value = Double
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imageThumbnailPixelSize``: changes the decode.
    public enum ImageThumbnailPixelSize: WebImageContextKey {
        public typealias Value = PixelSize
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imagePreserveAspectRatio``: changes the decode.
    public enum ImagePreserveAspectRatio: WebImageContextKey {
        public typealias Value = Bool
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imageScaleDownLimitBytes``: changes the decode.
    public enum ImageScaleDownLimitBytes: WebImageContextKey {
        public typealias Value = Int
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imageMaxPixelCount``: changes the decode.
    public enum ImageMaxPixelCount: WebImageContextKey {
        public typealias Value = Int
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imageMaxTotalPixelCount``: changes the decode.
    public enum ImageMaxTotalPixelCount: WebImageContextKey {
        public typealias Value = Int
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imageMaxFrameCount``: changes the decode.
    public enum ImageMaxFrameCount: WebImageContextKey {
        public typealias Value = Int
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imageColorProfileHandling``: changes the decode.
    public enum ImageColorProfileHandling: WebImageContextKey {
        public typealias Value = ColorProfileHandling
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imageDecodeOptions``: changes the decode.
    public enum ImageDecodeOptions: WebImageContextKey {
        public typealias Value = WebImageCore.ImageDecodeOptions
        public static let effect = WebImageContextKeyEffect.decode
    }
    /// The key of ``WebImageContext/imageEncodeOptions``: changes what is loaded, cached or stored.
    public enum ImageEncodeOptions: WebImageContextKey {
        public typealias Value = WebImageCore.ImageEncodeOptions
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/optionsProcessor``: changes nothing about the image.
    public enum OptionsProcessor: WebImageContextKey {
        public typealias Value = any WebImageCore.OptionsProcessor
        public static let effect = WebImageContextKeyEffect.none
    }
    /// The key of ``WebImageContext/callbackQueue``: changes nothing about the image.
    public enum CallbackQueue: WebImageContextKey {
        public typealias Value = WebImageCore.CallbackQueue
        public static let effect = WebImageContextKeyEffect.none
    }
    /// The key of ``WebImageContext/setImageOperationKey``: changes nothing about the image.
    public enum SetImageOperationKey: WebImageContextKey {
        public typealias Value = String
        public static let effect = WebImageContextKeyEffect.none
    }
    /// The key of ``WebImageContext/loaderCachedImage``: changes what is loaded, cached or stored.
    public enum LoaderCachedImage: WebImageContextKey {
        public typealias Value = WebImage
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/imageCacheKey``: changes what is cached. (The one part of it
    /// that changes a decode, the `@2x` scale, enters ``ImageDecodeSharingKey`` on its own.)
    public enum ImageCacheKey: WebImageContextKey {
        public typealias Value = String
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageContext/imageEventSink``: changes nothing about the image.
    public enum ImageEventSink: WebImageContextKey {
        public typealias Value = WebImageCore.ImageEventSink
        public static let effect = WebImageContextKeyEffect.none
    }
}

extension WebImageContext {
    /// The cache for this request instead of the manager's (SDWebImage `imageCache`).
    public var imageCache: (any ImageCache)? {
        get { self[WebImageContextKeys.ImageCache.self] }
        set { self[WebImageContextKeys.ImageCache.self] = newValue }
    }
    /// The loader for this request instead of the manager's (SDWebImage `imageLoader`).
    public var imageLoader: (any ImageLoader)? {
        get { self[WebImageContextKeys.ImageLoader.self] }
        set { self[WebImageContextKeys.ImageLoader.self] = newValue }
    }
    /// The coder that decodes this request's data instead of the shared coders manager
    /// (SDWebImage `imageCoder`).
    public var imageCoder: (any ImageCoder)? {
        get { self[WebImageContextKeys.ImageCoder.self] }
        set { self[WebImageContextKeys.ImageCoder.self] = newValue }
    }
    /// The transformer applied after loading; its key becomes part of the cache key
    /// (SDWebImage `imageTransformer`).
    public var imageTransformer: (any ImageTransformer)? {
        get { self[WebImageContextKeys.ImageTransformer.self] }
        set { self[WebImageContextKeys.ImageTransformer.self] = newValue }
    }
    /// Turns a URL into a cache key instead of the manager's filter (SDWebImage `cacheKeyFilter`).
    public var cacheKeyFilter: (any CacheKeyFilter)? {
        get { self[WebImageContextKeys.CacheKeyFilter.self] }
        set { self[WebImageContextKeys.CacheKeyFilter.self] = newValue }
    }
    /// Chooses the data stored on disk for a loaded image (SDWebImage `cacheSerializer`).
    public var cacheSerializer: (any CacheSerializer)? {
        get { self[WebImageContextKeys.CacheSerializer.self] }
        set { self[WebImageContextKeys.CacheSerializer.self] = newValue }
    }
    /// Which tiers to query (default `.all`).
    ///
    /// To skip a tier, write `ImageCacheType.none` in full: on an optional, a bare `.none` means
    /// `nil` ("not set"), and the compiler warns about it.
    public var queryCacheType: ImageCacheType? {
        get { self[WebImageContextKeys.QueryCacheType.self] }
        set { self[WebImageContextKeys.QueryCacheType.self] = newValue }
    }
    /// Which tiers to store the loaded image in (default `.all`).
    public var storeCacheType: ImageCacheType? {
        get { self[WebImageContextKeys.StoreCacheType.self] }
        set { self[WebImageContextKeys.StoreCacheType.self] = newValue }
    }
    /// Which tiers to query for the original image of a transformed request (default `.all`).
    public var originalQueryCacheType: ImageCacheType? {
        get { self[WebImageContextKeys.OriginalQueryCacheType.self] }
        set { self[WebImageContextKeys.OriginalQueryCacheType.self] = newValue }
    }
    /// Which tiers to store the original image of a transformed request in (default `.disk`).
    public var originalStoreCacheType: ImageCacheType? {
        get { self[WebImageContextKeys.OriginalStoreCacheType.self] }
        set { self[WebImageContextKeys.OriginalStoreCacheType.self] = newValue }
    }
    /// The cache for original images of transformed requests (default: the request's cache).
    public var originalImageCache: (any ImageCache)? {
        get { self[WebImageContextKeys.OriginalImageCache.self] }
        set { self[WebImageContextKeys.OriginalImageCache.self] = newValue }
    }
    /// The image's scale factor (>= 1). Default: from the key (`@2x.`, `@3x.`), else 1.
    public var imageScaleFactor: Double? {
        get { self[WebImageContextKeys.ImageScaleFactor.self] }
        set { self[WebImageContextKeys.ImageScaleFactor.self] = newValue }
    }
    /// Decode a thumbnail no larger than this many pixels (also for animated images).
    public var imageThumbnailPixelSize: PixelSize? {
        get { self[WebImageContextKeys.ImageThumbnailPixelSize.self] }
        set { self[WebImageContextKeys.ImageThumbnailPixelSize.self] = newValue }
    }
    /// Whether a thumbnail keeps the image's aspect ratio (default `true`).
    public var imagePreserveAspectRatio: Bool? {
        get { self[WebImageContextKeys.ImagePreserveAspectRatio.self] }
        set { self[WebImageContextKeys.ImagePreserveAspectRatio.self] = newValue }
    }
    /// The byte budget per image with `scaleDownLargeImages`.
    public var imageScaleDownLimitBytes: Int? {
        get { self[WebImageContextKeys.ImageScaleDownLimitBytes.self] }
        set { self[WebImageContextKeys.ImageScaleDownLimitBytes.self] = newValue }
    }
    /// The most pixels one source frame may have, from its header, whatever size it is decoded
    /// at (``ImageDecodeOptions/maxPixelCount``; default 50 megapixels). It also sets the JPEG
    /// decoder's memory budget.
    public var imageMaxPixelCount: Int? {
        get { self[WebImageContextKeys.ImageMaxPixelCount.self] }
        set { self[WebImageContextKeys.ImageMaxPixelCount.self] = newValue }
    }
    /// The pixel budget of a whole image, frames x source width x height, thumbnails included
    /// (``ImageDecodeOptions/maxTotalPixelCount``; default 100 megapixels).
    public var imageMaxTotalPixelCount: Int? {
        get { self[WebImageContextKeys.ImageMaxTotalPixelCount.self] }
        set { self[WebImageContextKeys.ImageMaxTotalPixelCount.self] = newValue }
    }
    /// The most frames an animation may have (``ImageDecodeOptions/maxFrameCount``; default 10,000).
    public var imageMaxFrameCount: Int? {
        get { self[WebImageContextKeys.ImageMaxFrameCount.self] }
        set { self[WebImageContextKeys.ImageMaxFrameCount.self] = newValue }
    }
    /// What the coders do with a file's colour profile: convert to sRGB (the default) or keep
    /// it in ``WebImage/colorProfile`` for the encoders to embed again. Keeping adds a
    /// `ColorProfile(keep)` part to the request's cache keys, its original key included.
    public var imageColorProfileHandling: ColorProfileHandling? {
        get { self[WebImageContextKeys.ImageColorProfileHandling.self] }
        set { self[WebImageContextKeys.ImageColorProfileHandling.self] = newValue }
    }
    /// Decode options laid under those derived from the other keys (SDWebImage `imageDecodeOptions`).
    public var imageDecodeOptions: ImageDecodeOptions? {
        get { self[WebImageContextKeys.ImageDecodeOptions.self] }
        set { self[WebImageContextKeys.ImageDecodeOptions.self] = newValue }
    }
    /// Encode options for data the cache re-encodes (SDWebImage `imageEncodeOptions`).
    public var imageEncodeOptions: ImageEncodeOptions? {
        get { self[WebImageContextKeys.ImageEncodeOptions.self] }
        set { self[WebImageContextKeys.ImageEncodeOptions.self] = newValue }
    }
    /// Rewrites the options and context of this request before it starts.
    public var optionsProcessor: (any OptionsProcessor)? {
        get { self[WebImageContextKeys.OptionsProcessor.self] }
        set { self[WebImageContextKeys.OptionsProcessor.self] = newValue }
    }
    /// Where completion and progress callbacks run (default ``CallbackQueue/immediate``).
    public var callbackQueue: CallbackQueue? {
        get { self[WebImageContextKeys.CallbackQueue.self] }
        set { self[WebImageContextKeys.CallbackQueue.self] = newValue }
    }
    /// The key under which an ``ImageTarget``-style call site tracks its running load.
    public var setImageOperationKey: String? {
        get { self[WebImageContextKeys.SetImageOperationKey.self] }
        set { self[WebImageContextKeys.SetImageOperationKey.self] = newValue }
    }
    /// The cached image handed to the loader on a `refreshCached` request.
    public var loaderCachedImage: WebImage? {
        get { self[WebImageContextKeys.LoaderCachedImage.self] }
        set { self[WebImageContextKeys.LoaderCachedImage.self] = newValue }
    }
    /// The final cache key of this request, set by the manager for loaders and coders to read
    /// (for example to derive the scale factor from `@2x`).
    public var imageCacheKey: String? {
        get { self[WebImageContextKeys.ImageCacheKey.self] }
        set { self[WebImageContextKeys.ImageCacheKey.self] = newValue }
    }
    /// Where the parts serving this request report its events (``ImageEvent``): loaders, caches
    /// and coders emit through it. The manager sets it on every request it runs while it has
    /// event observers (replacing a value the caller put here); with no observer it is `nil`
    /// unless the caller set one. Callers normally leave it unset.
    public var imageEventSink: ImageEventSink? {
        get { self[WebImageContextKeys.ImageEventSink.self] }
        set { self[WebImageContextKeys.ImageEventSink.self] = newValue }
    }
}
