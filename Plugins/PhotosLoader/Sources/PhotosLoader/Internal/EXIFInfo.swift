/// What the index takes from an EXIF block (the TIFF structure after `"Exif\0\0"` in a JPEG's
/// APP1 segment).
struct EXIFInfo: Equatable, Sendable {
    /// IFD0's Orientation (0x0112), when present and in 1...8.
    var orientation: Int?
    /// The Exif IFD's DateTimeOriginal (0x9003): `"YYYY:MM:DD HH:MM:SS"`.
    var dateTimeOriginal: String?
    /// The Exif IFD's OffsetTimeOriginal (0x9011): `"+HH:MM"` or `"-HH:MM"` (EXIF 2.31).
    var offsetTimeOriginal: String?
    /// IFD1's JPEG thumbnail: JPEGInterchangeFormat (0x0201) and JPEGInterchangeFormatLength
    /// (0x0202), as a range of the TIFF bytes; only when it lies inside them and IFD1 does not
    /// declare another compression than JPEG (Compression 0x0103 = 6).
    var thumbnailRange: Range<Int>?
}
