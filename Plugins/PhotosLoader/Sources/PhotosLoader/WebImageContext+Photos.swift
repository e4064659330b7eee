public import WebImageCore

extension WebImageContext {
    /// The recommended context for `photos://` requests: `storeCacheType` and
    /// `originalStoreCacheType` `.none` (the library is already on local disk; see
    /// ``PhotosLoader``; a thumbnail or transformed request would otherwise store the full-size
    /// original), and the thumbnail size if given.
    /// - Parameter thumbnailPixelSize: The thumbnail to decode (`nil`: full size).
    public static func photosLibrary(thumbnailPixelSize: PixelSize? = nil) -> WebImageContext {
        var context = WebImageContext()
        context.storeCacheType = ImageCacheType.none
        context.originalStoreCacheType = ImageCacheType.none
        context.imageThumbnailPixelSize = thumbnailPixelSize
        return context
    }
}
