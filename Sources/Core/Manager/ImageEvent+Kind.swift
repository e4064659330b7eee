import Foundation

extension ImageEvent {
    /// What happened to a request; see ``ImageEvent`` for the order.
    public enum Kind: Sendable, CustomStringConvertible {
        /// The request arrived with a URL and its key is made; a blocked URL's `failed`
        /// follows at once.
        case started
        /// The request shares a load that another request started (coalescing): it sees that
        /// load's events from now on, and gets its own end.
        case joined
        /// The cache served the key from this tier (`.memory` or `.disk`). For a transformed
        /// request that missed, a second hit or miss follows for the original key.
        case cacheHit(ImageCacheType)
        /// The cache does not hold the key (or `queryCacheType` asked no tier that holds it).
        case cacheMiss
        /// The loader was asked for the URL.
        case loaderStarted
        /// The loader answered: the bytes it delivered and the HTTP status, when there was HTTP.
        case loaderFinished(bytes: Int, statusCode: Int?)
        /// The loader failed (not for a cancellation; `cacheNotModified` too, after which the
        /// cached image ends the request).
        case loaderFailed(WebImageError)
        /// Bytes were decoded to an image: how long it took, the image's size and frames.
        /// Emitted by the decode stage through ``WebImageContext/imageEventSink``.
        case decoded(milliseconds: Double, pixelSize: PixelSize, frameCount: Int)
        /// The transformer ran: its key and how long it took.
        case transformed(transformerKey: String, milliseconds: Double)
        /// A cache stored the image (or its data) under `key` in these tiers.
        case stored(cacheType: ImageCacheType, key: String)
        /// A cache store failed. The request is not failed by it: the image was delivered.
        case storeFailed(cacheType: ImageCacheType, key: String, error: WebImageError)
        /// The request was cancelled (its task, its operation, or ``ImageManager/cancelAll()``).
        case cancelled
        /// The request ended with an image (or data): where it came from, as in
        /// ``ImageLoadResult/cacheType``.
        case finished(cacheType: ImageCacheType)
        /// The request ended with this error.
        case failed(WebImageError)
        /// A part serving the request (a cache, a loader, a coder) reports something.
        /// - Parameters:
        ///   - level: How much it matters.
        ///   - source: The part, by type name (`"RedisImageCache"`).
        ///   - message: What happened, naming the key or URL.
        case log(level: LogLevel, source: String, message: String)

        /// The case's name without its values (`"cacheHit"`), for filtering and counting.
        public var name: String {
            switch self {
            case .started: "started"
            case .joined: "joined"
            case .cacheHit: "cacheHit"
            case .cacheMiss: "cacheMiss"
            case .loaderStarted: "loaderStarted"
            case .loaderFinished: "loaderFinished"
            case .loaderFailed: "loaderFailed"
            case .decoded: "decoded"
            case .transformed: "transformed"
            case .stored: "stored"
            case .storeFailed: "storeFailed"
            case .cancelled: "cancelled"
            case .finished: "finished"
            case .failed: "failed"
            case .log: "log"
            }
        }

        /// Whether this kind ends the request (``finished(cacheType:)``, ``failed(_:)``,
        /// ``cancelled``). Stores may still be reported after it.
        public var isEnd: Bool {
            switch self {
            case .finished, .failed, .cancelled: true
            default: false
            }
        }

        /// The name and the values, one line: `loaderFinished(bytes: 1234, status: 200)`.
        public var description: String {
            switch self {
            case .started, .joined, .cacheMiss, .loaderStarted, .cancelled: name
            case .cacheHit(let cacheType): "cacheHit(\(cacheType))"
            case .loaderFinished(let bytes, let statusCode):
                "loaderFinished(bytes: \(bytes)\(statusCode.map { ", status: \($0)" } ?? ""))"
            case .loaderFailed(let error): "loaderFailed(\(error.message))"
            case .decoded(let milliseconds, let pixelSize, let frameCount):
                "decoded(\(Self.format(milliseconds)) ms, \(pixelSize), \(frameCount) frame\(frameCount == 1 ? "" : "s"))"
            case .transformed(let transformerKey, let milliseconds):
                "transformed(\(transformerKey), \(Self.format(milliseconds)) ms)"
            case .stored(let cacheType, let key): "stored(\(cacheType), key \(String(reflecting: key)))"
            case .storeFailed(let cacheType, let key, let error):
                "storeFailed(\(cacheType), key \(String(reflecting: key)): \(error.message))"
            case .finished(let cacheType): "finished(\(cacheType))"
            case .failed(let error): "failed(\(error.message))"
            case .log(let level, let source, let message): "log(\(level), \(source): \(message))"
            }
        }

        /// The end a request's outcome reports: `finished`, or `cancelled` for a cancellation
        /// error, else `failed`.
        static func end(of result: Result<ImageLoadResult, any Error>, url: URL) -> Kind {
            switch result {
            case .success(let loaded):
                return .finished(cacheType: loaded.cacheType)
            case .failure(let error):
                let error = ImageManager.webImageError(error, url: url)
                return error.code == .cancelled ? .cancelled : .failed(error)
            }
        }

        private static func format(_ milliseconds: Double) -> String {
            let tenths = (milliseconds * 10).rounded() / 10
            return "\(tenths)"
        }
    }
}
