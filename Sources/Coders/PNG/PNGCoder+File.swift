public import Foundation
public import WebImageCore

extension PNGCoder {
    /// Decodes the PNG file at `url` as ``decode(_:options:)`` decodes its bytes, without
    /// holding the file in memory when it can: a still's thumbnail (`options.thumbnailPixelSize`
    /// at most half the source on a side, the case ``decode(_:options:)`` makes from the rows as
    /// they are decoded) reads the file a piece at a time through one 256 KiB buffer, so that
    /// thumbnailing a large PNG costs about the thumbnail's own memory, not the file's size
    /// plus a bitmap. Any other decode (full size, a larger thumbnail, an APNG) reads the whole
    /// file first.
    ///
    /// ```swift
    /// var options = ImageDecodeOptions()
    /// options.thumbnailPixelSize = PixelSize(width: 400, height: 300)
    /// let thumbnail = try PNGCoder().decode(contentsOf: URL(fileURLWithPath: "scan.png"), options: options)
    /// ```
    ///
    /// The result, its metadata and its errors are those of ``decode(_:options:)`` on the file's
    /// bytes (messages name the file's size).
    /// - Throws: ``/WebImageCore/WebImageError`` with `unsupportedURL` (not a file URL),
    ///   `invalidURL` (no such file, or a directory), `invalidDownloadResponse` (unreadable),
    ///   or the codes ``decode(_:options:)`` throws.
    public func decode(contentsOf url: URL, options: ImageDecodeOptions) throws -> WebImage {
        try PNGFileDecoding.decode(contentsOf: url, options: options)
    }
}
