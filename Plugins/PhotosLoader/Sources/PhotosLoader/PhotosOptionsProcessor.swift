public import Foundation
public import WebImageCore

/// Applies the recommended options to `photos://` requests: `fromLoaderOnly` (no cache query) and,
/// unless the request's context sets one, `storeCacheType = .none` (no cache store). Other URLs
/// go to ``next`` unchanged.
///
/// ```swift
/// ImageManager.shared.optionsProcessor = PhotosOptionsProcessor(next: ImageManager.shared.optionsProcessor)
/// ```
///
/// Why: the photo library is already on local disk (SDWebImage recommends the same for its
/// Photos loader); see ``PhotosLoader``.
///
/// Thread-safety: immutable; call from any thread.
public struct PhotosOptionsProcessor: OptionsProcessor {
    /// The processor for every other URL (and applied after this one for `photos://` URLs).
    public let next: (any OptionsProcessor)?

    /// A processor that hands other URLs to `next`.
    public init(next: (any OptionsProcessor)? = nil) {
        self.next = next
    }

    public func processedOptions(for url: URL, options: WebImageOptions, context: WebImageContext) -> OptionsProcessorResult? {
        guard PhotosURL.isPhotosURL(url) else {
            return next?.processedOptions(for: url, options: options, context: context)
        }
        var result = OptionsProcessorResult(options: options.union(.photosLibrary), context: context)
        if result.context.storeCacheType == nil {
            result.context.storeCacheType = ImageCacheType.none
        }
        return next?.processedOptions(for: url, options: result.options, context: result.context) ?? result
    }
}

extension WebImageOptions {
    /// The recommended options for `photos://` requests: `fromLoaderOnly`. The library is already
    /// on local disk (see ``PhotosLoader``); combine with
    /// ``WebImageContext/photosLibrary(thumbnailPixelSize:)`` to skip the cache store as well.
    public static let photosLibrary: WebImageOptions = [.fromLoaderOnly]
}

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
