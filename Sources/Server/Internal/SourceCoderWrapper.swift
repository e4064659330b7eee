import Foundation
import WebImageCore

/// A coder the server wraps around its source decoder to change how sources are decoded
/// (``MemoryBudgetedCoder``: under the memory budget; ``ShrinkOnLoadCoder``: at a reduced
/// size): detection, encoding and header reading are the wrapped coder's, once, here.
protocol SourceCoderWrapper: ImageHeaderReader {
    /// The wrapped coder.
    var base: any ImageCoder { get }
}

extension SourceCoderWrapper {
    func canDecode(_ data: Data) -> Bool { base.canDecode(data) }

    func canEncode(to format: ImageFormat) -> Bool { base.canEncode(to: format) }

    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try base.encode(image, as: format, options: options)
    }

    func readProperties(of data: Data) throws -> ImageProperties {
        try HeaderReaderLookup.properties(in: base, of: data)
    }

    /// The wrapped coder's header reader for `data`, if it has one.
    func headerReader(for data: Data) -> (any ImageHeaderReader)? {
        HeaderReaderLookup.reader(in: base, for: data)
    }

    /// The headers of `data`: those a wrapper outside this one read (``SourceHeadersKey`` in
    /// `options`' context), else read now by the wrapped coder's header reader; `nil` when it
    /// has none or it fails.
    func sourceProperties(of data: Data, options: ImageDecodeOptions) -> ImageProperties? {
        options.context[SourceHeadersKey.self] ?? (try? headerReader(for: data)?.readProperties(of: data))
    }
}
