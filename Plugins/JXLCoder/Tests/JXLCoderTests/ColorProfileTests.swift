import Foundation
import JXLCoder
import SwiftWebImage
import Testing
import WebImageTestSupport

/// JPEG XL colour (issue 31): cjxl's lossless encode of a ProPhoto-tagged PNG keeps the
/// profile, and the decode comes back to the photo's sRGB colours (12.7 dB PSNR before).
@Suite(.onOwnThreads, .enabled(if: ReferenceTools.available, ReferenceTools.skipMessage))
struct ColorProfileTests {
    @Test func aProPhotoJXLDecodesToThePhotosColours() async throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.proPhoto)
        let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), ColorFixtures.proPhoto)
        let jxl = try await ReferenceTools.cjxl(png, ext: "png", flags: ["-d", "0"], in: folder)
        let decoded = try JXLCoder().decode(jxl)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo) < 1)
        #expect(ColorFixtures.meanDeltaE(stored, ColorFixtures.photo) > 3)
    }

    @Test func anUntaggedJXLIsLeftAsItIs() async throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try PNGCoder().encode(WebImage(bitmap: ColorFixtures.photo), as: .png)
        let jxl = try await ReferenceTools.cjxl(png, ext: "png", flags: ["-d", "0"], in: folder)
        let decoded = try JXLCoder().decode(jxl)
        #expect(!decoded.metadata.contains(.colorConverted))
        #expect(decoded.bitmap == ColorFixtures.photo)
    }
}

/// ``ColorProfileHandling/keep`` through the JPEG XL encoder (issue 31).
@Suite(.onOwnThreads) struct JXLColorProfileKeepingTests {
    @Test func aKeptProfileRoundTripsThroughTheEncoder() throws {
        let keep = ColorFixtures.keepProfile
        let (stored, image) = ColorFixtures.keptAdobePhoto
        let jxl = try JXLCoder(lossless: true).encode(image, as: .jpegXL)
        let kept = try JXLCoder().decode(jxl, options: keep)
        #expect(kept.bitmap == stored, "lossless: the numbers come back as they were")
        #expect(kept.colorProfile?.data == ColorFixtures.adobeRGB && !kept.metadata.contains(.colorConverted))
        let converted = try JXLCoder().decode(jxl)
        #expect(converted.colorProfile == nil && ColorFixtures.meanDeltaE(converted.bitmap, ColorFixtures.photo) < 1)
        // Lossy (XYB): libjxl renders into the profile it reports; a default decode is the photo.
        let lossy = try JXLCoder().encode(image, as: .jpegXL, options: ImageEncodeOptions(compressionQuality: 0.95))
        #expect(ColorFixtures.meanDeltaE(try JXLCoder().decode(lossy).bitmap, ColorFixtures.photo) < 2)
    }
}
