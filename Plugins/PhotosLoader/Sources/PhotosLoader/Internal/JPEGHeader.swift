import WebImageCore

/// Where an EXIF thumbnail (IFD1's JPEG) lies in its file, and its stored size.
struct ThumbnailLocation: Hashable, Sendable {
    var offset: Int
    var length: Int
    var storedSize: PixelSize
}

/// What the index reads from a JPEG without decoding a pixel.
struct JPEGHeader {
    /// The frame size as stored (before the orientation).
    var storedSize: PixelSize
    /// The first EXIF block's tags.
    var exif: EXIFInfo?
    /// The XMP `tiff:Orientation`, read only when EXIF has no orientation (as JPEGCoder does).
    var xmpOrientation: Int?
    /// The EXIF thumbnail, when IFD1 points at a readable JPEG inside the APP1 segment.
    var thumbnail: ThumbnailLocation?

    /// The orientation JPEGCoder applies: EXIF's, else XMP's.
    var orientation: Int? { exif?.orientation ?? xmpOrientation }
}
