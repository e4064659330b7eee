import Foundation
import WebImageCoders
import WebImageCore

/// The fast path of ``PhotosLoader``: a thumbnail request served from the JPEG thumbnail that
/// cameras store in the EXIF block (IFD1), without reading or decoding the main image.
enum EmbeddedThumbnailDecoding {
    /// The size to produce from the embedded thumbnail, or `nil` when it cannot serve the request
    /// honestly:
    /// - the request must ask for something smaller than the photo (a thumbnail size or a
    ///   scale-down limit); a full-size request never gets a thumbnail;
    /// - the embedded thumbnail must cover the target on both sides (it is never enlarged);
    /// - it must have the photo's aspect ratio, to within one pixel of rounding (some cameras
    ///   store a 4:3 thumbnail with black bars for a 16:9 photo: those are not used).
    ///
    /// The target is what decoding the whole photo would give: ``ImageDecodeOptions/targetPixelSize(for:frameCount:)``
    /// of the photo's size (upright, unless the options keep the stored orientation).
    static func target(for asset: PhotoAsset, options: ImageDecodeOptions) -> PixelSize? {
        guard asset.format == .jpeg, let thumbnail = asset.embeddedThumbnail else { return nil }
        var photo = asset.pixelSize
        var small = thumbnail.pixelSize
        if !options.applyOrientation, let orientation = asset.orientation, (5...8).contains(orientation) {
            photo = PixelSize(width: photo.height, height: photo.width)
            small = PixelSize(width: small.height, height: small.width)
        }
        let target = options.targetPixelSize(for: photo)
        guard target != photo, !target.isEmpty else { return nil }
        guard small.width >= target.width, small.height >= target.height else { return nil }
        // Same aspect ratio: the thumbnail's height is the photo's scaled to its width, +- 1.
        let expectedHeight = Double(small.width) * Double(photo.height) / Double(photo.width)
        guard abs(Double(small.height) - expectedHeight) <= 1 else { return nil }
        return target
    }

    /// Decodes the embedded thumbnail `bytes` to exactly `target`, upright like the photo.
    ///
    /// The EXIF thumbnail carries no orientation of its own: it is stored like the primary image
    /// and takes IFD0's orientation. So the bytes get a minimal EXIF block in front (IFD0 with the
    /// photo's Orientation only) and `JPEGCoder` applies it, as it does for any JPEG; then it
    /// resamples (Lanczos-3) to the target.
    /// - Throws: The coder's ``WebImageError`` for corrupt thumbnail data; `badImageData` for a
    ///   truncated one.
    static func decode(_ bytes: [UInt8], orientation: Int, target: PixelSize, options: ImageDecodeOptions) throws -> WebImage {
        var thumbnailOptions = options
        thumbnailOptions.thumbnailPixelSize = target
        thumbnailOptions.preserveAspectRatio = false
        thumbnailOptions.scaleDownLimitBytes = nil
        let data = options.applyOrientation ? tagged(bytes, orientation: orientation) : bytes
        var image = try JPEGCoder().decode(Data(data), options: thumbnailOptions)
        guard image.pixelSize == target else {
            throw WebImageError(.badImageData, "the embedded thumbnail decoded to \(image.pixelSize), not \(target)")
        }
        // A truncated thumbnail decodes to what arrived; a partial thumbnail is not served.
        guard !image.metadata.contains(.incremental) else {
            throw WebImageError(.badImageData, "the embedded thumbnail of \(bytes.count) bytes is truncated")
        }
        image.metadata.insert(.thumbnail)
        return image
    }

    /// `jpeg` with an APP1 EXIF segment right after SOI whose IFD0 holds one tag, Orientation.
    /// Decoders read the first EXIF segment, so this one wins over any the thumbnail has.
    static func tagged(_ jpeg: [UInt8], orientation: Int) -> [UInt8] {
        guard jpeg.count >= 2, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return jpeg }
        let value = UInt8(clamping: (1...8).contains(orientation) ? orientation : 1)
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // "MM", 42, IFD0 at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, value, 0x00, 0x00,  // Orientation, SHORT, 1, value
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        var result: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
        result.reserveCapacity(jpeg.count + length + 2)
        result += body
        result += jpeg[2...]
        return result
    }
}
