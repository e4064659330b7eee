import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import WebPCoder

/// The core's coder contract (round trip, own output claimed, empty, truncated and corrupt input,
/// bounded thumbnails) for each way the coder encodes.
@Suite(.onOwnThreads) struct ContractTests {
    /// Lossless: exact pixels, alpha included (RGB under transparent pixels too).
    @Test(arguments: ImageCoderContract.Check.allCases)
    func lossless(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: WebPCoder(lossless: true), format: .webp, tolerance: 0, preservesAlpha: true))
    }

    /// Lossy at the default quality (1 -> libwebp 100) on the opaque gradient: 4:2:0 chroma and
    /// the DCT move a channel by at most a few levels (the measured worst case is 5).
    @Test(arguments: ImageCoderContract.Check.allCases)
    func lossy(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: WebPCoder(lossless: false), format: .webp, tolerance: 8, preservesAlpha: false))
    }

    /// Lossless chosen per request by the context key over a lossy coder.
    @Test(arguments: ImageCoderContract.Check.allCases)
    func losslessThroughTheContextKey(_ check: ImageCoderContract.Check) throws {
        try ImageCoderContract.verify(check, subject: .init(coder: ContextLosslessCoder(), format: .webp, tolerance: 0, preservesAlpha: true))
    }
}

/// A lossy `WebPCoder` whose every encode sets `webPLossless = true` in the options' context.
private struct ContextLosslessCoder: ImageCoder {
    let inner = WebPCoder(lossless: false)
    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage { try inner.decode(data, options: options) }
    func canEncode(to format: ImageFormat) -> Bool { inner.canEncode(to: format) }
    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        var options = options
        options.context.webPLossless = true
        return try inner.encode(image, as: format, options: options)
    }
}
