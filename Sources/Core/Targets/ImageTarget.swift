public import Foundation

/// Anything that shows an image: the Linux stand-in for `UIImageView` in
/// `UIImageView+WebCache` (SDWebImage's `sd_setImageWithURL:`). Conform, and get
/// ``setImage(with:placeholder:options:context:manager:progress:completed:)``.
///
/// ```swift
/// final class Thumbnail: ImageTarget {
///     let shown = Locked<WebImage?>(nil)
///     func display(_ image: WebImage?) { shown.withLock { $0 = image } }
/// }
/// thumbnail.setImage(with: url, placeholder: gray, manager: .shared)
/// ```
public protocol ImageTarget: AnyObject, Sendable {
    /// Shows `image` (`nil`: show nothing). Called on the request's callback queue.
    func display(_ image: WebImage?)
}

extension ImageTarget {
    /// The operation key used when the context names none: the target's type name.
    public var defaultImageOperationKey: String { String(describing: type(of: self)) }

    /// Loads `url` into this target (SDWebImage's `sd_setImageWithURL:...`).
    ///
    /// 1. Cancels this target's previous load for the same operation key (the context's
    ///    `setImageOperationKey`, else the type name), unless `avoidAutoCancelImage`. The key
    ///    goes to the manager in the context's `setImageOperationKey`, as SDWebImage does.
    /// 2. Shows `placeholder` at once, unless `delayPlaceholder`.
    /// 3. A `nil` URL completes with ``WebImageError/Code/invalidURL`` (showing the placeholder
    ///    then if it was delayed).
    /// 4. Loads through `manager`; partial images and the final image are shown unless
    ///    `avoidAutoSetImage`; on failure with `delayPlaceholder` the placeholder is shown.
    ///    A cancelled load changes nothing on the target.
    ///
    /// `display`, `progress` and `completed` run on the context's callback queue. A hit the
    /// cache gives on the calling thread (a memory hit; with `queryMemoryDataSync` its data,
    /// with `queryDiskDataSync` a disk hit: ``ImageCache/queryImageImmediately(forKey:options:context:cacheType:)``)
    /// is shown, and `completed` called, before this returns on the default
    /// ``CallbackQueue/immediate`` queue, as `sd_setImage` does with a memory hit.
    /// - Returns: The load's operation (`nil` for a `nil` URL).
    @discardableResult
    public func setImage(
        with url: URL?,
        placeholder: WebImage? = nil,
        options: WebImageOptions = [],
        context: WebImageContext = WebImageContext(),
        manager: ImageManager,
        progress: ImageLoadEventHandler? = nil,
        completed: (@Sendable (Result<ImageLoadResult, WebImageError>) -> Void)? = nil
    ) -> ImageOperation? {
        let operationKey = context.setImageOperationKey ?? defaultImageOperationKey
        let key = ImageTargetRegistry.Key(target: ObjectIdentifier(self), operationKey: operationKey)
        // The manager and the parts it calls see the key the load is tracked under.
        var context = context
        context.setImageOperationKey = operationKey
        let queue = context.callbackQueue ?? .immediate
        if !options.contains(.avoidAutoCancelImage) {
            ImageTargetRegistry.shared.remove(key)?.cancel()
        }
        if !options.contains(.delayPlaceholder) {
            queue.execute { self.display(placeholder) }
        }
        guard let url else {
            let error = WebImageError(.invalidURL, "Image url is nil")
            queue.execute {
                if options.contains(.delayPlaceholder) { self.display(placeholder) }
                completed?(.failure(error))
            }
            return nil
        }
        let autoSet = !options.contains(.avoidAutoSetImage)
        let events: ImageLoadEventHandler = { event in
            if autoSet {
                switch event {
                case .partialImage(let image): self.display(image)
                case .cachedImage(let cached): self.display(cached.image)
                case .progress: break
                }
            }
            progress?(event)
        }
        // The completion may run before `loadImage` returns: the holder makes sure the
        // registry entry is removed either way.
        let holder = OperationHolder()
        let operation = manager.loadImage(with: url, options: options, context: context, progress: events) { result in
            if let operation = holder.finish() { ImageTargetRegistry.shared.finish(key, operation: operation) }
            switch result {
            case .success(let loaded):
                if autoSet { self.display(loaded.image) }
            case .failure(let error):
                if error.code != .cancelled, options.contains(.delayPlaceholder) { self.display(placeholder) }
            }
            completed?(result)
        }
        _ = ImageTargetRegistry.shared.replace(key, with: operation, url: url)
        if holder.set(operation) { ImageTargetRegistry.shared.finish(key, operation: operation) }
        return operation
    }

    /// Cancels this target's running load for `operationKey` (default: the type name).
    public func cancelImageLoad(operationKey: String? = nil) {
        let key = ImageTargetRegistry.Key(target: ObjectIdentifier(self), operationKey: operationKey ?? defaultImageOperationKey)
        ImageTargetRegistry.shared.remove(key)?.cancel()
    }

    /// The URL of this target's running load for `operationKey` (default: the type name).
    public func loadingImageURL(operationKey: String? = nil) -> URL? {
        ImageTargetRegistry.shared.url(for: ImageTargetRegistry.Key(target: ObjectIdentifier(self), operationKey: operationKey ?? defaultImageOperationKey))
    }
}
