public import WebImageCore

/// What a decoder does with the colour profile of a file under a request's
/// ``/WebImageCore/ImageDecodeOptions/colorProfileHandling`` (``ColorConversion/plan(for:options:)``):
/// convert the RGBA pixels to sRGB, carry the profile, or neither.
public struct ColorPlan: Sendable {
    /// The profile the image carries in ``/WebImageCore/WebImage/colorProfile``
    /// (``/WebImageCore/ColorProfileHandling/keep`` with an RGB profile lcms2 reads).
    public let keptProfile: ColorProfile?
    /// The conversion to sRGB, when the profile is converted and changes pixels.
    public let converter: ColorConverter?

    /// Neither: an untagged or sRGB file, or a profile that cannot be used.
    public static let none = ColorPlan(keptProfile: nil, converter: nil)

    /// Whether the plan converts pixels (the image is then marked
    /// ``/WebImageCore/ImageMetadata/colorConverted``).
    public var converts: Bool { converter != nil }

    /// Converts `bitmap` (RGBA) in place when the plan converts.
    public func apply(to bitmap: inout Bitmap) {
        converter?.convert(&bitmap)
    }

    /// `image` with the plan's metadata: ``/WebImageCore/ImageMetadata/colorConverted`` when it
    /// converts, the kept profile when it keeps one. Its pixels are not touched.
    public func marking(_ image: WebImage) -> WebImage {
        var image = image
        if converts { image.metadata.insert(.colorConverted) }
        if let keptProfile { image.colorProfile = keptProfile }
        return image
    }
}
