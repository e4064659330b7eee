public import WebImageCore
import Foundation

/// An ``/WebImageCore/ImageTransformer`` that records its calls and marks its output: the result has the
/// ``/WebImageCore/ImageMetadata/transformed`` flag and its key appended to ``/WebImageCore/WebImage/extendedData``
/// (so a test reads which coder and transformers made an image). Its
/// ``/WebImageCore/ImageTransformer/preserveImageMetadata`` is `false`, so that the manager keeps
/// that mark instead of the source's extended data.
public final class MockImageTransformer: ImageTransformer {
    /// One call: the cache key it was given and the input's size.
    public struct Call: Sendable, Equatable {
        /// The cache key the transformer was given.
        public let key: String
        /// The size of the input image.
        public let inputSize: PixelSize

        /// A call with the given key and input size.
        public init(key: String, inputSize: PixelSize) {
            self.key = key
            self.inputSize = inputSize
        }
    }

    /// The key given at creation.
    public let transformerKey: String
    /// Every call, in order.
    public let calls = CallRecorder<Call>()
    private let failure = Locked<WebImageError?>(nil)

    /// `false`: the manager keeps the extended data this transformer writes.
    public var preserveImageMetadata: Bool { false }

    /// A transformer whose ``transformerKey`` is `key`.
    public init(key: String = "MockTransformer") {
        self.transformerKey = key
    }

    /// When set, `transform` throws this error.
    public var error: WebImageError? {
        get { failure.withLock { $0 } }
        set { failure.withLock { $0 = newValue } }
    }

    /// Records the call; the image marked transformed with the key appended to its extended data, or the scripted failure.
    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        calls.record(Call(key: key, inputSize: image.pixelSize))
        if let error { throw error }
        var output = image
        output.metadata.insert(.transformed)
        output.extendedData = (image.extendedData ?? .init()) + Array("+\(transformerKey)".utf8)
        return output
    }
}
