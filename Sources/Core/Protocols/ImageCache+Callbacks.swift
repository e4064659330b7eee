public import Foundation

/// Completion-handler API over ``ImageCache``, for SDWebImage-style call sites.
///
/// Each method starts the work in a task and returns an ``ImageOperation``. The completion is
/// called exactly once, on the context's ``WebImageContext/callbackQueue``: with the result, or
/// with a miss (`nil`) at once if the operation is cancelled first. `store` first does the
/// part of the store that takes effect at once (``ImageCache/beginStore(_:data:forKey:options:context:cacheType:)``:
/// the memory tier of a ``CachesManager`` or of the default image cache), before it returns.
extension ImageCache {
    /// Looks up `key`; see ``ImageCache/queryImage(forKey:options:context:cacheType:)``.
    @discardableResult
    public func queryImage(
        forKey key: String,
        options: WebImageOptions = [],
        context: WebImageContext = WebImageContext(),
        cacheType: ImageCacheType = .all,
        completion: @escaping @Sendable (ImageCacheResult?) -> Void
    ) -> ImageOperation {
        let once = CompletionOnce(queue: context.callbackQueue ?? .immediate, completion)
        let operation = ImageOperation {
            let result = await self.queryImage(forKey: key, options: options, context: context, cacheType: cacheType)
            once.deliver(Task.isCancelled ? nil : result)
        }
        operation.onCancel { once.deliver(nil) }
        return operation
    }

    /// Stores `image` and/or `data`; the completion gets the store's error, if any
    /// (a cancellation error if cancelled first).
    ///
    /// The tiers that take a write at once (memory) hold the image when this returns (see
    /// ``ImageCache/beginStore(_:data:forKey:options:context:cacheType:)``), as with
    /// SDWebImage's `storeImage:...completion:`: `imageFromMemoryCache(forKey:)` or
    /// `containsImage` right after the call see it. The rest (disk) runs in the task; cancelling
    /// the operation calls the completion at once but does not undo what was written.
    @discardableResult
    public func store(
        _ image: WebImage?,
        data: Data?,
        forKey key: String,
        options: WebImageOptions = [],
        context: WebImageContext = WebImageContext(),
        cacheType: ImageCacheType = .all,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> ImageOperation {
        let once = CompletionOnce<(any Error)?>(queue: context.callbackQueue ?? .immediate, completion)
        let rest = beginStore(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)
        let operation = ImageOperation {
            do {
                try await rest()
                once.deliver(nil)
            } catch {
                once.deliver(error)
            }
        }
        operation.onCancel { once.deliver(WebImageError.cancelled("Operation cancelled by user during storing the cache")) }
        return operation
    }
}
