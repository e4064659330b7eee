public import Foundation
public import WebImageCore

extension JPEGCoder {
    /// Decodes the JPEG file at `url` as ``decode(_:options:)`` decodes its bytes, without ever
    /// holding the compressed file in memory: libjpeg pulls it through one 64 KiB buffer (a
    /// progressive file's marker walk, which refuses scan bombs before anything is allocated,
    /// reads it once before, through one 256 KiB window). With `options.thumbnailPixelSize`
    /// (or `scaleDownLimitBytes`) libjpeg's DCT scaling decodes at 1/8 ... 7/8 of the size, so a
    /// thumbnail of a baseline JPEG costs about the scaled bitmap, not the file plus a full-size
    /// one. (A progressive file still makes libjpeg hold every DCT coefficient of the image,
    /// whatever the output size.)
    ///
    /// ```swift
    /// var options = ImageDecodeOptions()
    /// options.thumbnailPixelSize = PixelSize(width: 400, height: 300)
    /// let thumbnail = try JPEGCoder().decode(contentsOf: URL(fileURLWithPath: "photo.jpg"), options: options)
    /// ```
    ///
    /// The result, its metadata and its error codes are those of ``decode(_:options:)`` on the
    /// file's bytes; messages start with the file's path and the error's `url` is the file. The
    /// file is read up to the size it had when it was opened: one that changes while it is read
    /// decodes as truncated or corrupt data does.
    /// - Throws: ``/WebImageCore/WebImageError`` with `unsupportedURL` (not a file URL),
    ///   `invalidURL` (no such file, or a directory), `invalidDownloadResponse` (unreadable),
    ///   or the codes ``decode(_:options:)`` throws.
    public func decode(contentsOf url: URL, options: ImageDecodeOptions) throws -> WebImage {
        try JPEGDecoding.decode(contentsOf: url, options: options).image(scale: options.scaleFactor)
    }
}
