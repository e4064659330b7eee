public import Foundation

/// Completion-handler API over ``ImageLoader``, for SDWebImage-style call sites.
extension ImageLoader {
    /// Loads the image at `url` through ``ImageLoader/beginRequest(with:options:context:progress:completion:)``:
    /// the loader's own registration where it has one, else a new task.
    ///
    /// The completion is called exactly once, on the context's
    /// ``WebImageContext/callbackQueue``: with the result, or with a
    /// ``WebImageError/Code/cancelled`` error at once when the returned operation is cancelled
    /// (the loader's work is cancelled too; whatever it delivers later is dropped).
    @discardableResult
    public func requestImage(
        with url: URL,
        options: WebImageOptions = [],
        context: WebImageContext = WebImageContext(),
        progress: ImageLoaderProgressHandler? = nil,
        completion: @escaping @Sendable (Result<ImageLoaderResult, any Error>) -> Void
    ) -> ImageOperation {
        beginRequest(with: url, options: options, context: context, progress: progress, completion: completion)
    }

    /// The default start: a task that runs the async
    /// ``requestImage(with:options:context:progress:)``.
    public func beginRequest(
        with url: URL,
        options: WebImageOptions,
        context: WebImageContext,
        progress: ImageLoaderProgressHandler?,
        completion: @escaping @Sendable (Result<ImageLoaderResult, any Error>) -> Void
    ) -> ImageOperation {
        let queue = context.callbackQueue ?? .immediate
        let once = CompletionOnce(queue: queue, completion)
        var forwardedProgress: ImageLoaderProgressHandler?
        if let progress {
            forwardedProgress = { @Sendable event in queue.execute { progress(event) } }
        }
        let handler = forwardedProgress
        let operation = ImageOperation {
            do {
                let result = try await self.requestImage(with: url, options: options, context: context, progress: handler)
                once.deliver(.success(result))
            } catch {
                once.deliver(.failure(error))
            }
        }
        operation.onCancel {
            once.deliver(.failure(WebImageError.cancelled("Operation cancelled by user during loading", url: url)))
        }
        return operation
    }
}
