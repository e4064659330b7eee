public import Foundation

/// Completion-handler API over ``ImageCache``, for SDWebImage-style call sites.
///
/// Each method starts the work in a task and returns an ``ImageOperation``. The completion is
/// called exactly once, on the context's ``WebImageContext/callbackQueue``: with the result, or
/// with a miss (`nil`) at once if the operation is cancelled first.
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
        let operation = ImageOperation {
            do {
                try await self.store(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)
                once.deliver(nil)
            } catch {
                once.deliver(error)
            }
        }
        operation.onCancel { once.deliver(WebImageError.cancelled("Operation cancelled by user during storing the cache")) }
        return operation
    }
}
