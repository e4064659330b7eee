import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import JXLCoder

/// The core's coder contract (round trip, own output claimed, empty, truncated and corrupt input,
/// bounded thumbnails) for each way the coder encodes.
@Suite(.onOwnThreads) struct ContractTests {
    /// Lossless: exact pixels, alpha included.
    @Test(arguments: ImageCoderContract.Check.allCases)
    func lossless(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: JXLCoder(lossless: true), format: .jpegXL, tolerance: 0, preservesAlpha: true))
    }

    /// Lossy at the default quality (1 -> distance 0.1) on the contract's opaque 37x23 gradient: the
    /// measured worst channel is 14 levels off. (With
    /// alpha, lossy encoding drops the color under fully transparent pixels, as libjxl does by
    /// default: EncodingTests checks the visible pixels.)
    @Test(arguments: ImageCoderContract.Check.allCases)
    func lossy(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: JXLCoder(lossless: false), format: .jpegXL, tolerance: 16, preservesAlpha: false))
    }

    /// Lossless chosen per request by the context key over a lossy coder.
    @Test(arguments: ImageCoderContract.Check.allCases)
    func losslessThroughTheContextKey(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: ContextLosslessCoder(), format: .jpegXL, tolerance: 0, preservesAlpha: true))
    }
}

/// A lossy `JXLCoder` whose every encode sets `jxlLossless = true` in the options' context.
private struct ContextLosslessCoder: ImageCoder {
    let inner = JXLCoder(lossless: false)
    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage { try inner.decode(data, options: options) }
    func canEncode(to format: ImageFormat) -> Bool { inner.canEncode(to: format) }
    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        var options = options
        options.context.jxlLossless = true
        return try inner.encode(image, as: format, options: options)
    }
}
