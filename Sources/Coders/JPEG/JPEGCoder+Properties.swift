public import Foundation
public import WebImageCore

extension JPEGCoder: ImageHeaderReader {
    /// The size, orientation (EXIF, else XMP `tiff:Orientation`, as decoding reads it) and alpha
    /// (none) of a JPEG, from its markers up to the first scan; one frame. Nothing is decoded
    /// and no limit applies.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not JPEG, has no frame
    ///   header (SOF) before its first scan, or claims an empty size.
    public func readProperties(of data: Data) throws -> ImageProperties {
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(data.count) bytes are not JPEG data (no SOI marker)")
        }
        return try data.withUnsafeBytes { raw in
            let walk = JPEGMarkerWalk.walk(raw, scans: false)
            guard walk.sawFrame else {
                throw WebImageError(.badImageData, "JPEG data of \(data.count) bytes has no frame header (SOF) before its image data")
            }
            let size = PixelSize(width: walk.width, height: walk.height)
            guard !size.isEmpty, !walk.components.isEmpty else {
                throw WebImageError(.badImageData, "JPEG data of \(data.count) bytes claims an empty image (\(size), \(walk.components.count) components)")
            }
            var orientation = 1
            if let exif = walk.exif, let value = EXIFOrientation.orientation(inTIFF: UnsafeRawBufferPointer(rebasing: raw[exif])) {
                orientation = value
            } else if let xmp = walk.xmp, let value = EXIFOrientation.orientation(inXMP: UnsafeRawBufferPointer(rebasing: raw[xmp])) {
                orientation = value
            }
            return ImageProperties(format: .jpeg, pixelSize: size, orientation: orientation, hasAlpha: false)
        }
    }
}
