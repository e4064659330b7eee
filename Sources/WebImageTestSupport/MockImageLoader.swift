public import Foundation
public import WebImageCore

/// An ``/WebImageCore/ImageLoader`` that records its calls, answers from a script, and can be suspended at a
/// gate so that a test holds a request in flight (coalescing, cancellation) with no sleeps.
public final class MockImageLoader: ImageLoader {
    /// One request the mock received.
    public struct Call: Sendable {
        /// The requested URL.
        public let url: URL
        /// The request's options.
        public let options: WebImageOptions
        /// The request's context.
        public let context: WebImageContext
    }

    /// What the mock answers for a URL.
    public enum Response: Sendable {
        /// Deliver this image and data.
        case image(WebImage, data: Data?)
        /// Fail with this error.
        case failure(any Error)
    }

    /// A name for messages.
    public let name: String
    /// The URL schemes this loader claims.
    public let schemes: Set<String>
    /// Every request, in order.
    public let calls = CallRecorder<Call>()
    /// When set, every request waits here (after recording the call and sending the scripted
    /// events) before it answers.
    public let gate: AsyncGate?
    /// The URLs of requests that ended because their task was cancelled.
    public let cancellations = CallRecorder<URL>()

    private struct Script {
        var responses: [URL: Response] = [:]
        var events: [ImageLoaderEvent] = []
        var blocksFailedURLs: Bool?
    }
    private let script = Locked(Script())

    /// A mock loader claiming `schemes`, answering from its script.
    /// - Parameters:
    ///   - name: A name for messages.
    ///   - schemes: The URL schemes the loader claims (default http, https, mock).
    ///   - gate: Suspend every request until this gate opens.
    public init(name: String = "mock", schemes: Set<String> = ["http", "https", "mock"], gate: AsyncGate? = nil) {
        self.name = name
        self.schemes = schemes
        self.gate = gate
    }

    /// Scripts the answer for `url` (default: a 16x12 gradient and `Data("mock:<url>".utf8)`).
    public func respond(to url: URL, with response: Response) {
        script.withLock { $0.responses[url] = response }
    }

    /// Scripts the progress events sent, in order, before every answer.
    public func sendEvents(_ events: [ImageLoaderEvent]) {
        script.withLock { $0.events = events }
    }

    /// Scripts ``shouldBlockFailedURL(_:error:)``; `nil` restores the protocol's default.
    public func setBlocksFailedURLs(_ blocks: Bool?) {
        script.withLock { $0.blocksFailedURLs = blocks }
    }

    /// The number of requests so far.
    public var requestCount: Int { calls.count }

    /// The default answer for `url`.
    public static func defaultResponse(for url: URL) -> Response {
        .image(TestImages.still(), data: Data("mock:\(url.absoluteString)".utf8))
    }

    /// Whether `url`'s scheme is one the mock claims.
    public func canRequestImage(for url: URL) -> Bool {
        url.scheme.map { schemes.contains($0.lowercased()) } ?? false
    }

    /// Records the call, waits at the gate if there is one, sends the scripted events, then answers from the script.
    public func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        calls.record(Call(url: url, options: options, context: context))
        let (response, events) = script.withLock { ($0.responses[url] ?? Self.defaultResponse(for: url), $0.events) }
        for event in events { progress?(event) }
        await gate?.wait()
        if Task.isCancelled {
            cancellations.record(url)
            throw WebImageError.cancelled("Operation cancelled by user during loading", url: url)
        }
        switch response {
        case .image(let image, let data):
            // A coder in the context decodes the data through the decode stage, as a real loader would.
            if let coder = context.imageCoder, let data {
                let stage = ImageDecodeRequest(url: url, options: options, context: context, defaultCoder: coder)
                return ImageLoaderResult(image: try stage.decodeLoadedData(data), data: data, statusCode: 200)
            }
            return ImageLoaderResult(image: image, data: data, statusCode: 200)
        case .failure(let error):
            throw error
        }
    }

    /// What ``setBlocksFailedURLs(_:)`` set, else the protocol's default.
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        script.withLock { $0.blocksFailedURLs } ?? !WebImageError.isTransientLoadError(error)
    }
}
