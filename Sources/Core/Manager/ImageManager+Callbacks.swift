public import Foundation

/// The completion-handler and `AsyncSequence` APIs, over the same engine as
/// ``ImageManager/loadImage(with:options:context:events:)``.
extension ImageManager {
    /// Loads the image at `url`, SDWebImage style.
    ///
    /// `completed` is called exactly once, on the context's ``WebImageContext/callbackQueue``
    /// (default ``CallbackQueue/immediate``): with the result, with the error, or, at once when
    /// the returned operation is cancelled, with a ``WebImageError/Code/cancelled`` error.
    /// `progress` gets the events (progress, partial images, the cached image of a
    /// `refreshCached` request) on the same queue; on a serial queue (``CallbackQueue/immediate``,
    /// ``CallbackQueue/main``, a serial `DispatchQueue`) they all arrive before `completed`.
    ///
    /// Answered at once: the cache is asked first on the calling thread
    /// (``ImageCache/queryImageImmediately(forKey:options:context:cacheType:)``, unless
    /// `fromLoaderOnly` or `refreshCached`); a hit it gives there (a memory hit; with
    /// `queryMemoryDataSync` its data, with `queryDiskDataSync` a disk hit) ends the request
    /// then, as SDWebImage's memory hit does. A request refused at once (a `nil` URL, a blocked
    /// URL) ends then too. On the ``CallbackQueue/immediate`` queue, `completed` is called
    /// before this returns. (The options processor and the cache key filter run on the
    /// calling thread too.)
    ///
    /// Otherwise the request is registered before this returns: ``cancelAll()`` cancels it and
    /// ``isRunning`` counts it from then on.
    /// - Returns: An operation that cancels this request (other requests sharing its work go on).
    @discardableResult
    public func loadImage(
        with url: URL?,
        options: WebImageOptions = [],
        context: WebImageContext = WebImageContext(),
        progress: ImageLoadEventHandler? = nil,
        completed: @escaping @Sendable (Result<ImageLoadResult, WebImageError>) -> Void
    ) -> ImageOperation {
        // The memory fast path of a plain request first: an empty context calls back at once.
        if let hit = plainMemoryHit(url, options: options, context: context) {
            completed(.success(hit))
            return ImageOperation()
        }
        let queue = context.callbackQueue ?? .immediate
        let once = CompletionOnce(queue: queue, completed)
        let events: ImageLoadEventHandler? = progress.map { progress in
            { @Sendable event in queue.execute { progress(event) } }
        }
        let resume: @Sendable (Result<ImageLoadResult, any Error>) -> Void = { result in
            once.deliver(result.mapError { Self.webImageError($0, url: url) })
        }
        let operation = ImageOperation()
        guard let request = prepareOrRefuse(url, options: options, context: context, resume: resume) else { return operation }
        if let hit = immediateResult(for: request, mayReadDisk: true) {
            resume(.success(hit))
            return operation
        }
        let workKey = workKey(for: request)
        let id = coordinator.makeID()
        // Registered with the coordinator (and the work started) before this returns; the
        // operation's cancellation leaves it, and the completion has said so first.
        submit(request, workKey: workKey, id: id, events: events, checksTaskCancellation: false, resume: resume)
        let coordinator = coordinator
        operation.onCancel {
            once.deliver(.failure(WebImageError.cancelled("Operation cancelled by user", url: url)))
            coordinator.leave(id: id)
        }
        return operation
    }

    /// The events and the result of a request as an `AsyncSequence`. Ending the iteration
    /// early (or cancelling the iterating task) cancels the request.
    public func updates(
        for url: URL?,
        options: WebImageOptions = [],
        context: WebImageContext = WebImageContext()
    ) -> AsyncThrowingStream<ImageLoadUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let result = try await self.loadImage(with: url, options: options, context: context) { event in
                        continuation.yield(.event(event))
                    }
                    continuation.yield(.finished(result))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func webImageError(_ error: any Error, url: URL?) -> WebImageError {
        if let error = error as? WebImageError { return error }
        if WebImageError.isCancellation(error) { return WebImageError(.cancelled, "Operation cancelled by user", underlyingError: error, url: url) }
        return WebImageError(.loaderFailed, "Loading \(url?.absoluteString ?? "nil") failed: \(error)", underlyingError: error, url: url)
    }
}
