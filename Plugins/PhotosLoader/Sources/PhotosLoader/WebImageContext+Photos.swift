public import WebImageCore

extension WebImageContext {
    /// The recommended context for `photos://` requests: `storeCacheType = .none` (the library is
    /// already on local disk; see ``PhotosLoader``), and the thumbnail size if given.
    /// - Parameter thumbnailPixelSize: The thumbnail to decode (`nil`: full size).
    public static func photosLibrary(thumbnailPixelSize: PixelSize? = nil) -> WebImageContext {
        var context = WebImageContext()
        context.storeCacheType = ImageCacheType.none
        context.imageThumbnailPixelSize = thumbnailPixelSize
        return context
    }
}
