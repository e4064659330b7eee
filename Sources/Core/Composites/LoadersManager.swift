public import Foundation

/// A loader made of loaders (SDWebImage's `SDImageLoadersManager`): the first member, in
/// reverse registration order (the loader added LAST is asked FIRST), whose
/// `canRequestImage(for:)` is true handles the URL; the same member says whether a failure
/// blocks the URL.
///
/// Members can be added and removed at any time from any thread; each call works on a snapshot
/// and calls no member while holding a lock.
///
/// The shared instance with the built-in loaders, `LoadersManager.shared`, comes with the
/// `SwiftWebImage` module.
public final class LoadersManager: ImageLoader {
    private let list: RegistrationList<any ImageLoader>

    /// A manager with `loaders`, in registration order (the last one is asked first).
    public init(_ loaders: [any ImageLoader] = []) {
        list = RegistrationList(loaders)
    }

    /// The members in registration order (the last one is asked first). Setting replaces all.
    public var loaders: [any ImageLoader] {
        get { list.members }
        set { list.replaceAll(with: newValue) }
    }

    /// Adds `loader`; it is asked before every member added earlier.
    public func add(_ loader: any ImageLoader) {
        list.add(loader)
    }

    /// Removes the members `shouldRemove` picks (the predicate runs with no lock held).
    public func removeAll(where shouldRemove: (any ImageLoader) throws -> Bool) rethrows {
        try list.removeAll(where: shouldRemove)
    }

    /// Removes `loader` (compared by identity).
    public func remove(_ loader: some ImageLoader & AnyObject) {
        list.removeAll { ($0 as AnyObject) === loader }
    }

    /// The member that handles `url` for this request, if any.
    public func loader(for url: URL, options: WebImageOptions = [], context: WebImageContext = WebImageContext()) -> (any ImageLoader)? {
        list.byPriority.first { $0.canRequestImage(for: url, options: options, context: context) }
    }

    public func canRequestImage(for url: URL) -> Bool {
        list.byPriority.contains { $0.canRequestImage(for: url) }
    }

    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext) -> Bool {
        loader(for: url, options: options, context: context) != nil
    }

    /// Loads with the member that handles `url`.
    /// - Throws: ``WebImageError/Code/unsupportedURL`` if no member handles it, else the member's error.
    public func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        guard let loader = loader(for: url, options: options, context: context) else {
            throw WebImageError(.unsupportedURL, "No image loader can request \(url.absoluteString)", url: url)
        }
        return try await loader.requestImage(with: url, options: options, context: context, progress: progress)
    }

    /// Starts the request with the member that handles `url` (its own registration, so that
    /// its cancel-all sees it at once); fails with ``WebImageError/Code/unsupportedURL`` on the
    /// context's callback queue if no member handles it.
    public func beginRequest(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?, completion: @escaping @Sendable (Result<ImageLoaderResult, any Error>) -> Void) -> ImageOperation {
        guard let loader = loader(for: url, options: options, context: context) else {
            let error = WebImageError(.unsupportedURL, "No image loader can request \(url.absoluteString)", url: url)
            (context.callbackQueue ?? .immediate).execute { completion(.failure(error)) }
            return ImageOperation()
        }
        return loader.beginRequest(with: url, options: options, context: context, progress: progress, completion: completion)
    }

    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        if let loader = list.byPriority.first(where: { $0.canRequestImage(for: url) }) {
            return loader.shouldBlockFailedURL(url, error: error)
        }
        return !WebImageError.isTransientLoadError(error)
    }
}
