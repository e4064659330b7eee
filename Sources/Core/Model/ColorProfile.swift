public import Foundation

/// An ICC colour profile an image carries: the colour space its pixel numbers are in, kept from
/// the file when a request asks to keep profiles (``ColorProfileHandling/keep``), and embedded
/// again by the encoders that take one (JPEG `APP2`, PNG `iCCP`, WebP `ICCP`, AVIF, HEIF and
/// JPEG XL).
///
/// By default the coders convert tagged images to sRGB at decode, and an image carries no
/// profile: its numbers are sRGB.
public struct ColorProfile: Sendable, Hashable {
    /// The profile's bytes, as they were in the file (for a colour space the file states by code
    /// points, such as an `nclx` box or a PNG `cICP` chunk, a profile made for them).
    public let data: Data
    /// The profile's description (its `desc` tag), or `nil` when it has none.
    public let description: String?

    /// A profile of `data` described as `description`.
    /// - Parameters:
    ///   - data: The ICC profile's bytes.
    ///   - description: Its description in words, if known.
    public init(data: Data, description: String? = nil) {
        self.data = data
        self.description = description
    }
}
