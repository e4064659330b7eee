import AVIFCoder
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The core's coder contract (round trip, own output claimed, empty, truncated and corrupt input,
/// bounded thumbnails) for each way the coder encodes.
@Suite(.onOwnThreads) struct ContractTests {
    /// Quality 1 (the default) is lossless: exact pixels, alpha included.
    @Test(arguments: ImageCoderContract.Check.allCases)
    func lossless(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: AVIFCoder(speed: 10), format: .avif, tolerance: 0, preservesAlpha: true))
    }

    /// Lossy (quality 0.9, 4:2:0) at the fastest speed chosen through the context key, on the
    /// opaque gradient: chroma subsampling and the quantizer move a channel by a few levels (the
    /// measured worst case is 8).
    @Test(arguments: ImageCoderContract.Check.allCases)
    func lossyThroughTheContextKey(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: LossyFastCoder(), format: .avif, tolerance: 12, preservesAlpha: false))
    }
}

/// An `AVIFCoder` at speed 0 whose every encode is lossy (quality 0.9) and sets
/// `avifEncodingSpeed = 10` in the options' context.
private struct LossyFastCoder: ImageCoder {
    let inner = AVIFCoder(speed: 0)
    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage { try inner.decode(data, options: options) }
    func canEncode(to format: ImageFormat) -> Bool { inner.canEncode(to: format) }
    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        var options = options
        options.compressionQuality = 0.9
        options.context.avifEncodingSpeed = 10
        return try inner.encode(image, as: format, options: options)
    }
}
