public import Foundation
public import WebImageCore

extension BMPCoder: ImageHeaderReader {
    /// The size of a BMP and whether it may carry alpha, from its file and info headers: no
    /// pixel is read and no limit applies. `hasAlpha` is `true` when the header gives the
    /// pixels an alpha channel (a non-zero alpha mask: BITFIELDS / ALPHABITFIELDS, or a V3+
    /// header of a 32-bit BI_RGB file) or the pixels are RLE-compressed (pixels a run skips are
    /// transparent); a decode may still find every pixel opaque (an alpha mask over zero alphas).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not BMP or a header this
    ///   coder cannot read.
    public func readProperties(of data: Data) throws -> ImageProperties {
        var unlimited = ImageDecodeOptions()
        unlimited.maxPixelCount = .max
        unlimited.maxTotalPixelCount = .max
        let header = try data.withUnsafeBytes { try BMPDecoding.parseHeader($0, options: unlimited) }
        let hasAlpha = header.compression == 1 || header.compression == 2 || (header.masks?.alpha ?? 0) != 0
        return ImageProperties(format: .bmp, pixelSize: PixelSize(width: header.width, height: header.height), hasAlpha: hasAlpha)
    }
}
