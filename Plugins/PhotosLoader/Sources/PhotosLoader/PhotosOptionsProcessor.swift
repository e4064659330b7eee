public import Foundation
public import WebImageCore

/// Applies the recommended options to `photos://` requests: `fromLoaderOnly` (no cache query) and,
/// unless the request's context sets them, `storeCacheType` and `originalStoreCacheType` `.none`
/// (no cache store, not even of the full-size original of a thumbnail or transformed request).
/// Other URLs go to ``next`` unchanged.
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

    /// For a `photos://` URL: `options` plus `fromLoaderOnly`, `context` with `storeCacheType`
    /// and `originalStoreCacheType` `.none` unless it sets them, then ``next`` applied to those. For any other URL: ``next``'s
    /// answer (`nil`, "keep them", without one).
    public func processedOptions(for url: URL, options: WebImageOptions, context: WebImageContext) -> OptionsProcessorResult? {
        guard PhotosURL.isPhotosURL(url) else {
            return next?.processedOptions(for: url, options: options, context: context)
        }
        var result = OptionsProcessorResult(options: options.union(.photosLibrary), context: context)
        if result.context.storeCacheType == nil {
            result.context.storeCacheType = ImageCacheType.none
        }
        if result.context.originalStoreCacheType == nil {
            result.context.originalStoreCacheType = ImageCacheType.none
        }
        return next?.processedOptions(for: url, options: result.options, context: result.context) ?? result
    }
}
