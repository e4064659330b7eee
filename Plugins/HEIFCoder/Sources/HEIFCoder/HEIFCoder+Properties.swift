public import Foundation
public import WebImageCore

extension HEIFCoder: ImageHeaderReader {
    /// Reads the primary image's displayed size (its `clap`, `irot` and `imir` applied) and
    /// alpha from a HEIF file's boxes, and the sizes of the thumbnails stored for it that a
    /// thumbnail decode would use (``/WebImageCore/ImageProperties/embeddedThumbnailSizes``:
    /// those of the primary image's aspect ratio, within 2%; empty without
    /// ``usesEmbeddedThumbnails``). No pixel is decoded; only libheif's own limits apply.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not HEIF
    ///   (or AVIF without ``decodesAVIF``), or whose boxes are corrupt or cut short.
    public func readProperties(of data: Data) throws -> ImageProperties {
        let format = ImageFormat.detect(data)
        guard format == .heic || format == .heif || (format == .avif && decodesAVIF) else {
            throw WebImageError(.badImageData, "\(data.count) bytes of data are not HEIF this coder reads (no HEIC or HEIF brand in an ftyp box)")
        }
        let header = try HEIFDecoding.readHeader(data)
        var properties = ImageProperties(format: format, pixelSize: header.size, hasAlpha: header.hasAlpha)
        if usesEmbeddedThumbnails { properties.embeddedThumbnailSizes = header.thumbnailSizes }
        return properties
    }
}
