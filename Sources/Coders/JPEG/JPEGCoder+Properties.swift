public import Foundation
public import WebImageCore
import WebImageColor

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
            var properties = ImageProperties(format: .jpeg, pixelSize: size, orientation: orientation, hasAlpha: false)
            properties.colorSpace = Self.colorSpace(walk, in: raw)
            return properties
        }
    }

    /// The colour space of a JPEG in words: its ICC profile's description (or why it is not
    /// used), with "CMYK" for four components; "untagged" without a profile.
    static func colorSpace(_ walk: JPEGMarkerWalk, in raw: UnsafeRawBufferPointer) -> String {
        let cmyk = walk.components.count == 4 ? (walk.sawAdobe ? "CMYK (Adobe, inverted)" : "CMYK") : nil
        guard !walk.iccSegments.isEmpty else { return cmyk.map { "\($0), untagged" } ?? "untagged" }
        let summary = walk.iccProfile(in: raw).map(ColorConversion.summary(of:)) ?? "unreadable ICC profile (used as untagged)"
        return (cmyk.map { "\($0), " } ?? "") + summary
    }
}
