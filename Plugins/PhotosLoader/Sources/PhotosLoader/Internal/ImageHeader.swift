import WebImageCore

/// What the index reads from an image file's header, whatever its format.
struct ImageHeader: Sendable {
    var format: ImageFormat
    /// The size as stored, before any orientation.
    var storedSize: PixelSize
    /// JPEG only: the EXIF (or XMP) orientation.
    var orientation: Int?
    /// JPEG only: the EXIF tags.
    var exif: EXIFInfo?
    /// JPEG only: the EXIF thumbnail.
    var thumbnail: ThumbnailLocation?

    /// The size as displayed: width and height swapped for orientations 5...8.
    var uprightSize: PixelSize {
        if let orientation, (5...8).contains(orientation) {
            return PixelSize(width: storedSize.height, height: storedSize.width)
        }
        return storedSize
    }
}
