public import Foundation

/// Loads an image for a URL: fetches the data and decodes it (SDWebImage's `SDImageLoader`).
///
/// Register a loader in a ``LoadersManager`` for the URLs it claims (a scheme, a host): the
/// manager asks the loader added last first. Or give one to one request with
/// ``WebImageContext/imageLoader``.
///
/// `requestImage` honours Swift task cancellation: cancelling the task ends the request with
/// a ``WebImageError/Code/cancelled`` error (or `CancellationError`) and frees its resources.
public protocol ImageLoader: Sendable {
    /// Whether this loader handles `url` (a cheap check: scheme, host).
    func canRequestImage(for url: URL) -> Bool
    /// Whether this loader handles `url` for this request; by default the same as
    /// ``canRequestImage(for:)``.
    func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext) -> Bool
    /// Loads and decodes the image at `url`.
    /// - Parameters:
    ///   - url: The image's URL (one this loader said it can request).
    ///   - options: The request's options.
    ///   - context: The request's context (coder, decode options, modifiers, ...).
    ///   - progress: Called with progress and, with `progressiveLoad`, partial images;
    ///     on any thread, never under a lock.
    /// - Throws: ``WebImageError`` (cancelled, bad status, bad data, ...).
    func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult
    /// Whether a failure with `error` should block `url` until `retryFailed`. The default
    /// blocks every failure except those ``WebImageError/isTransientLoadError(_:)`` names.
    func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool
    /// Starts a request for the completion-handler API
    /// (``requestImage(with:options:context:progress:completion:)`` calls it): registers it
    /// with the loader before it returns where the loader can, so that the loader's own
    /// cancel-all and counters see it at once.
    ///
    /// Default: a task that runs the async ``requestImage(with:options:context:progress:)``
    /// (registered when the task runs). The completion runs exactly once, on the context's
    /// ``WebImageContext/callbackQueue``.
    func beginRequest(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?, completion: @escaping @Sendable (Result<ImageLoaderResult, any Error>) -> Void) -> ImageOperation
}

/// Receives progress events of a load.
public typealias ImageLoaderProgressHandler = @Sendable (ImageLoaderEvent) -> Void

/// An event of a running load.
public enum ImageLoaderEvent: Sendable {
    /// Bytes received so far and bytes expected (`nil` when unknown).
    case progress(receivedBytes: Int64, expectedBytes: Int64?)
    /// A partial image from the data so far (progressive loading).
    case partialImage(WebImage)
}

/// What a loader delivers.
public struct ImageLoaderResult: Sendable {
    /// The decoded image (`nil` with `avoidDecodeImage`).
    public var image: WebImage?
    /// The encoded data, for the disk cache.
    public var data: Data?
    /// The HTTP status code, when there was HTTP.
    public var statusCode: Int?
    /// The response's content type, when known.
    public var contentType: String?

    /// A loader result with every field given.
    public init(image: WebImage?, data: Data?, statusCode: Int? = nil, contentType: String? = nil) {
        self.image = image
        self.data = data
        self.statusCode = statusCode
        self.contentType = contentType
    }
}

extension ImageLoader {
    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext) -> Bool {
        canRequestImage(for: url)
    }

    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        !WebImageError.isTransientLoadError(error)
    }

    /// Loads with no options, context or progress.
    public func requestImage(with url: URL) async throws -> ImageLoaderResult {
        try await requestImage(with: url, options: [], context: WebImageContext(), progress: nil)
    }
}

extension WebImageError {
    /// Whether `error` is one that must never block a URL (SDWebImage's list): a cancellation,
    /// "not modified", or a network condition that may pass (not connected, timed out,
    /// international roaming off, data not allowed, cannot find host, cannot connect to host,
    /// network connection lost).
    public static func isTransientLoadError(_ error: any Error) -> Bool {
        if isCancellation(error) { return true }
        if let error = error as? WebImageError {
            if error.code == .cacheNotModified { return true }
            if let underlying = error.underlyingError { return isTransientLoadError(underlying) }
            return false
        }
        if let error = error as? URLError {
            let transient: Set<URLError.Code> = [
                .notConnectedToInternet, .cancelled, .timedOut, .internationalRoamingOff,
                .dataNotAllowed, .cannotFindHost, .cannotConnectToHost, .networkConnectionLost,
            ]
            return transient.contains(error.code)
        }
        return false
    }
}
