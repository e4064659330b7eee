public import Foundation

/// A coder that can describe an image from its headers alone, without decoding pixels: the
/// cheap path of `webimage info` and of anything that only needs an image's size and frames.
///
/// An optional capability: a ``CodersManager`` asks the member that would decode the data
/// (``CodersManager/headerReader(for:)``); callers fall back to a full decode when it is not a
/// header reader. Implementations read only headers (chunk, block or marker walks), allocate
/// nothing in proportion to the claimed pixels, and apply no pixel or frame limit: they describe
/// images a decode would refuse (``ImageProperties/decodeLimitError(options:)`` says so).
public protocol ImageHeaderReader: ImageCoder {
    /// Reads the properties of `data` from its headers.
    /// - Throws: ``WebImageError/Code/badImageData`` for data that is not this coder's format
    ///   or whose headers are corrupt or missing.
    func readProperties(of data: Data) throws -> ImageProperties
}
