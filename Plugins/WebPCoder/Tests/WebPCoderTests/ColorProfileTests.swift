import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport
import WebPCoder

/// A WebP with an ICCP chunk decodes to the colours of the photo it was made from (issue 31).
@Suite struct ColorProfileTests {
    /// The photo converted into `profile`'s space, encoded losslessly and tagged.
    static func tagged(_ profile: Data) throws -> (stored: Bitmap, webp: Data) {
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, profile)
        let plain = try WebPCoder(lossless: true).encode(WebImage(bitmap: stored), as: .webp)
        return (stored, ColorFixtures.tagWebP(plain, profile, size: stored.size, hasAlpha: false))
    }

    @Test func anAdobeRGBWebPDecodesToThePhotosColours() throws {
        let (stored, webp) = try Self.tagged(ColorFixtures.adobeRGB)
        let decoded = try WebPCoder().decode(webp)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo) < 1)
        #expect(ColorFixtures.meanDeltaE(stored, ColorFixtures.photo) > 3, "the fixture differs from the photo when read as sRGB")
        // A thumbnail is converted too.
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 48, height: 32)
        #expect(try WebPCoder().decode(webp, options: options).metadata.contains(.colorConverted))
    }

    @Test func anSRGBOrBrokenProfileLeavesThePixels() throws {
        let plain = try WebPCoder(lossless: true).encode(WebImage(bitmap: ColorFixtures.photo), as: .webp)
        for profile in [ColorFixtures.sRGBProfile(), Data(ColorFixtures.adobeRGB.prefix(100)), Data([1, 2, 3])] {
            let webp = ColorFixtures.tagWebP(plain, profile, size: ColorFixtures.photo.size, hasAlpha: false)
            let decoded = try WebPCoder().decode(webp)
            #expect(!decoded.metadata.contains(.colorConverted))
            #expect(decoded.bitmap == ColorFixtures.photo)
        }
    }
}
