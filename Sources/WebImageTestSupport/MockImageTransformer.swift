public import WebImageCore
import Foundation

/// An ``ImageTransformer`` that records its calls and marks its output: the result has the
/// ``ImageMetadata/transformed`` flag and its key appended to ``WebImage/extendedData``.
public final class MockImageTransformer: ImageTransformer {
    /// One call: the cache key it was given and the input's size.
    public struct Call: Sendable, Equatable {
        public let key: String
        public let inputSize: PixelSize

        public init(key: String, inputSize: PixelSize) {
            self.key = key
            self.inputSize = inputSize
        }
    }

    public let transformerKey: String
    /// Every call, in order.
    public let calls = CallRecorder<Call>()
    private let failure = Locked<WebImageError?>(nil)

    public init(key: String = "MockTransformer") {
        self.transformerKey = key
    }

    /// When set, `transform` throws this error.
    public var error: WebImageError? {
        get { failure.withLock { $0 } }
        set { failure.withLock { $0 = newValue } }
    }

    public func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        calls.record(Call(key: key, inputSize: image.pixelSize))
        if let error { throw error }
        var output = image
        output.metadata.insert(.transformed)
        output.extendedData = (image.extendedData ?? .init()) + Array("+\(transformerKey)".utf8)
        return output
    }
}
