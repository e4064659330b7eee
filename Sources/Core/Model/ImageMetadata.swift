/// Flags that say how an image was made (SDWebImage's `sd_isDecoded`, `sd_isThumbnail`,
/// `sd_isIncremental`, `sd_isTransformed`, ...).
public struct ImageMetadata: OptionSet, Hashable, Sendable {
    /// The flags as a bit mask (each flag one bit).
    public let rawValue: UInt32
    /// The flags whose bits `rawValue` sets.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The pixels are decoded (always true for the built-in coders' output).
    public static let decoded = ImageMetadata(rawValue: 1 << 0)
    /// Decoded at a smaller size than the source (thumbnail or scale-down decoding).
    public static let thumbnail = ImageMetadata(rawValue: 1 << 1)
    /// A partial image from incomplete data (progressive loading).
    public static let incremental = ImageMetadata(rawValue: 1 << 2)
    /// The output of a transformer.
    public static let transformed = ImageMetadata(rawValue: 1 << 3)
    /// The EXIF orientation was applied to the pixels (the image is upright).
    public static let orientationApplied = ImageMetadata(rawValue: 1 << 4)
    /// A vector image rasterized at some size (SVG, PDF plug-ins).
    public static let vector = ImageMetadata(rawValue: 1 << 5)
    /// The file carried a colour profile (an ICC profile, or PNG `gAMA`/`cHRM`) that is not
    /// sRGB, and the pixels were converted from it to sRGB at decode.
    public static let colorConverted = ImageMetadata(rawValue: 1 << 6)
}
