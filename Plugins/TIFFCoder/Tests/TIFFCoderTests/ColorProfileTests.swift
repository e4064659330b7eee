import Foundation
import Testing
import TIFFCoder
import WebImageCore
import WebImageTestSupport

/// An embedded ICC profile (tag 34675) converts to sRGB at decode, or is kept, as the other
/// coders do; the encoder embeds a kept profile again.
@Suite(.onOwnThreads) struct ColorProfileTests {
    /// The photo in Adobe RGB, written with its profile by the coder itself.
    static let tagged: Data = {
        try! TIFFCoder().encode(ColorFixtures.keptAdobePhoto.image, as: .tiff)
    }()

    @Test func aProfileIsConvertedToSRGB() throws {
        let image = try TIFFCoder().decode(Self.tagged)
        #expect(image.metadata.contains(.colorConverted))
        #expect(image.colorProfile == nil)
        let deltaE = ColorFixtures.meanDeltaE(image.bitmap, ColorFixtures.photo)
        #expect(deltaE < 1.5, "mean ΔE2000 \(deltaE)")
    }

    @Test func aProfileIsKeptWhenAsked() throws {
        let image = try TIFFCoder().decode(Self.tagged, options: ColorFixtures.keepProfile)
        #expect(!image.metadata.contains(.colorConverted))
        #expect(image.colorProfile?.data == ColorFixtures.adobeRGB)
        #expect(image.bitmap == ColorFixtures.keptAdobePhoto.stored)
        // Re-encoded, the profile stays.
        let again = try TIFFCoder().decode(try TIFFCoder().encode(image, as: .tiff), options: ColorFixtures.keepProfile)
        #expect(again.colorProfile?.data == ColorFixtures.adobeRGB)
    }

    @Test func thePropertiesNameTheProfile() throws {
        let properties = try TIFFCoder().readProperties(of: Self.tagged)
        #expect(properties.colorSpace?.hasPrefix("RGB, ICC") == true, "\(properties.colorSpace ?? "nil")")
        let untagged = try TIFFCoder().readProperties(of: try TIFFCoder().encode(WebImage(bitmap: TestImages.gradient()), as: .tiff))
        #expect(untagged.colorSpace == "RGB, untagged")
    }
}
