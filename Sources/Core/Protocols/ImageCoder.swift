public import Foundation

/// Decodes data into a ``WebImage`` and encodes images into data (SDWebImage's `SDImageCoder`).
///
/// Register a coder in a ``CodersManager`` (the shared one: `CodersManager.shared.add(MyCoder())`):
/// the manager asks the coder added last first, so a coder registered at launch wins over the
/// built-in ones for the data it claims.
///
/// Coders are called from any thread, concurrently; keep them stateless or lock their state.
public protocol ImageCoder: Sendable {
    /// Whether this coder can decode `data` (a cheap magic-byte check).
    func canDecode(_ data: Data) -> Bool
    /// Decodes `data`.
    /// - Throws: ``WebImageError`` with ``WebImageError/Code/badImageData`` for corrupt,
    ///   truncated or empty data, ``WebImageError/Code/imageTooLarge`` over the pixel limit.
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage
    /// Whether this coder can encode to `format`.
    func canEncode(to format: ImageFormat) -> Bool
    /// Encodes `image` as `format`.
    /// - Throws: ``WebImageError`` with ``WebImageError/Code/unsupportedFormat`` or
    ///   ``WebImageError/Code/encodingFailed``.
    func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data
}

extension ImageCoder {
    /// Decodes with default options.
    public func decode(_ data: Data) throws -> WebImage {
        try decode(data, options: ImageDecodeOptions())
    }

    /// Encodes with default options.
    public func encode(_ image: WebImage, as format: ImageFormat) throws -> Data {
        try encode(image, as: format, options: ImageEncodeOptions())
    }
}
