public import Foundation
public import WebImageCore

/// An ``/WebImageCore/ImageCoder`` that claims data starting with its magic bytes, records its calls, and
/// can be scripted to fail. The images it decodes carry its name in
/// ``/WebImageCore/WebImage/extendedData``, so a test can tell which coder decoded.
///
/// Coders are synchronous; to hold a load in flight, suspend the loader or cache instead.
public final class MockImageCoder: ImageCoder {
    /// One call the mock received.
    public enum Call: Sendable, Equatable {
        /// A decode of `byteCount` bytes.
        case decode(byteCount: Int)
        /// An encode to `format`.
        case encode(format: ImageFormat)
    }

    /// The name written into decoded images' extended data.
    public let name: String
    /// The data prefix this coder claims.
    public let magic: [UInt8]
    /// The format it reports and encodes.
    public let format: ImageFormat
    /// Every decode and encode, in order.
    public let calls = CallRecorder<Call>()
    private let failure = Locked<WebImageError?>(nil)

    /// A mock coder that claims data starting with `magic`.
    /// - Parameters:
    ///   - name: Written into decoded images' extended data.
    ///   - magic: The data prefix this coder claims.
    ///   - format: The format it reports and encodes.
    public init(name: String, magic: [UInt8], format: ImageFormat) {
        self.name = name
        self.magic = magic
        self.format = format
    }

    /// When set, decode and encode throw this error.
    public var error: WebImageError? {
        get { failure.withLock { $0 } }
        set { failure.withLock { $0 = newValue } }
    }

    /// The number of decodes so far.
    public var decodeCount: Int {
        calls.all.filter { if case .decode = $0 { true } else { false } }.count
    }

    /// The name of the coder that decoded `image`, from its extended data.
    public static func decoderName(of image: WebImage) -> String? {
        image.extendedData.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `data` starts with the mock's magic bytes.
    public func canDecode(_ data: Data) -> Bool {
        data.starts(with: magic)
    }

    /// Records a decode; a small gradient image whose extended data is the mock's name, or the scripted failure.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        calls.record(.decode(byteCount: data.count))
        if let error { throw error }
        var image = WebImage(bitmap: TestImages.gradient(), scale: options.scaleFactor, format: format)
        image.extendedData = Data(name.utf8)
        return image
    }

    /// Whether `format` is the mock's format.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == self.format
    }

    /// Records an encode; the magic bytes followed by the mock's name, or the scripted failure.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        calls.record(.encode(format: format))
        if let error { throw error }
        return Data(magic + Array(name.utf8))
    }
}
