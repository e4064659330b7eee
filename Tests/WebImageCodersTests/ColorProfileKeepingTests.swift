import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import WebImageColor
@testable import WebImageCoders

/// ``ColorProfileHandling/keep`` (issue 31): the numbers stay as the file has them, the profile
/// rides in ``WebImage/colorProfile`` and the encoders embed it again, byte for byte; CMYK is
/// converted all the same; a default decode of what was written converts to the photo's colours.
@Suite(.onOwnThreads) struct ColorProfileKeepingTests {
    static var keep: ImageDecodeOptions { ColorFixtures.keepProfile }

    static let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)

    @Test func aKeptJPEGProfileLeavesTheNumbersAndRoundTripsThroughTheJPEGEncoder() throws {
        let untagged = try JPEGCoder().encode(WebImage(bitmap: Self.stored), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 1))
        let tagged = ColorFixtures.tagJPEG(untagged, ColorFixtures.adobeRGB)
        let kept = try JPEGCoder().decode(tagged, options: Self.keep)
        #expect(kept.colorProfile?.data == ColorFixtures.adobeRGB)
        #expect(!kept.metadata.contains(.colorConverted))
        #expect(kept.bitmap == (try JPEGCoder().decode(untagged)).bitmap, "the numbers are the file's")

        let written = try JPEGCoder().encode(kept, as: .jpeg, options: ImageEncodeOptions(compressionQuality: 1))
        #expect(try JPEGCoder().decode(written, options: Self.keep).colorProfile?.data == ColorFixtures.adobeRGB)
        let converted = try JPEGCoder().decode(written)
        #expect(converted.colorProfile == nil && converted.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(converted.bitmap, ColorFixtures.photo) < 1.5)
        // A profile larger than one APP2 segment (64 KiB) is split and reassembled.
        let large = ColorFixtures.adobeRGB + Data(count: 150_000)
        var big = WebImage(bitmap: Self.stored)
        big.colorProfile = ColorProfile(data: large)
        let bigJPEG = try JPEGCoder().encode(big, as: .jpeg)
        #expect(try JPEGCoder().decode(bigJPEG, options: Self.keep).colorProfile?.data == large)
    }

    @Test func aKeptPNGProfileRoundTripsAndAGreyImageStaysRGB() throws {
        let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: Self.stored), as: .png), ColorFixtures.adobeRGB)
        let kept = try PNGCoder().decode(png, options: Self.keep)
        #expect(kept.bitmap == Self.stored)
        #expect(kept.colorProfile?.data == ColorFixtures.adobeRGB)
        let written = try PNGCoder().encode(kept, as: .png)
        let again = try PNGCoder().decode(written, options: Self.keep)
        #expect(again.colorProfile?.data == ColorFixtures.adobeRGB && again.bitmap == Self.stored)
        #expect(ColorFixtures.meanDeltaE(try PNGCoder().decode(written).bitmap, ColorFixtures.photo) < 1)

        // Grey pixels with an RGB profile: written as RGB (an RGB iCCP on a grey PNG is invalid).
        var grey = WebImage(bitmap: try Bitmap(width: 4, height: 4, fill: RGBAColor(red: 90, green: 90, blue: 90, alpha: 255), hasAlpha: false))
        grey.colorProfile = ColorProfile(data: ColorFixtures.adobeRGB)
        let greyPNG = try PNGCoder().encode(grey, as: .png)
        #expect(greyPNG[25] == 2, "colour type \(greyPNG[25])")
        #expect(try PNGCoder().decode(greyPNG, options: Self.keep).colorProfile?.data == ColorFixtures.adobeRGB)
    }

    @Test func keepCarriesADescriptionAndThumbnailsAndTransformsKeepTheProfile() throws {
        let description = "Test Adobe RGB"
        let profile = ColorFixtures.describedProfile(ColorFixtures.adobeRGB, description)
        let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: Self.stored), as: .png), profile)
        var options = Self.keep
        options.thumbnailPixelSize = PixelSize(width: 24, height: 16)
        let thumbnail = try PNGCoder().decode(png, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 24, height: 16))
        #expect(thumbnail.colorProfile?.description == description)
        let flipped = try thumbnail.mappingFrames(transformerKey: "flip") { $0 }
        #expect(flipped.colorProfile == thumbnail.colorProfile)
        #expect(flipped.firstFrameOnly.colorProfile == thumbnail.colorProfile)
        #expect(flipped.memoryCost == flipped.bitmap.byteCount + profile.count)
    }

    @Test func anAnimatedPNGKeepsItsProfileOnEveryFrame() throws {
        let frames = try [0, 1].map { shift in
            ImageFrame(bitmap: try Bitmap(width: 8, height: 8, fill: RGBAColor(red: UInt8(100 + shift * 50), green: 40, blue: 200, alpha: 255), hasAlpha: false), duration: 0.1)
        }
        var image = try WebImage(frames: frames)
        image.colorProfile = ColorProfile(data: ColorFixtures.adobeRGB)
        let apng = try PNGCoder().encode(image, as: .png)
        let kept = try PNGCoder().decode(apng, options: Self.keep)
        #expect(kept.frameCount == 2 && kept.colorProfile?.data == ColorFixtures.adobeRGB)
        #expect(try kept.frame(at: 1).bitmap == frames[1].bitmap, "frame 1 is not converted")
        let converted = try PNGCoder().decode(apng)
        #expect(try converted.frame(at: 1).bitmap != frames[1].bitmap, "by default every frame is converted")
    }

    @Test func cmykIsConvertedAndBadOrGreyProfilesAreNotKept() throws {
        // CMYK: the RGBA pixels cannot hold CMYK numbers, so keep converts as the default does.
        if let cmykProfile = CMYKFixtures.defaultCMYKProfile {
            let size = ColorFixtures.photo.size
            let jpeg = ColorFixtures.tagJPEG(CMYKFixtures.jpeg(CMYKFixtures.separate(ColorFixtures.photo, cmykProfile), size: size), cmykProfile)
            let kept = try JPEGCoder().decode(jpeg, options: Self.keep)
            #expect(kept.colorProfile == nil && kept.metadata.contains(.colorConverted))
            #expect(kept.bitmap == (try JPEGCoder().decode(jpeg)).bitmap)
        }
        let plain = try PNGCoder().encode(WebImage(bitmap: Self.stored), as: .png)
        for bad in [Data(ColorFixtures.adobeRGB.prefix(100)), Data(repeating: 7, count: 600)] {
            let decoded = try PNGCoder().decode(ColorFixtures.tagPNG(plain, bad), options: Self.keep)
            #expect(decoded.colorProfile == nil && decoded.bitmap == Self.stored)
        }
        #expect(ColorConversion.keptProfile(ColorFixtures.greyProfile()) == nil, "a grey profile is not an RGB image's")
    }

    @Test func aCalibratedBMPConvertsAndIsKept() throws {
        // Adobe RGB's endpoints as BMP's LCS_CALIBRATED_RGB states them: CIE XYZ (2.30 fixed
        // point), whose sum is the D65 white, and gamma 2.2 (16.16).
        let primaries = [(0.64, 0.33, 0.297361), (0.21, 0.71, 0.627355), (0.15, 0.06, 0.075285)]
        let endpoints = primaries.flatMap { x, y, luminance in [x / y * luminance, luminance, (1 - x - y) / y * luminance] }
        let bmp = ColorFixtures.calibratedBMP(Self.stored, endpoints: endpoints, gamma: 2.2)
        let converted = try BMPCoder().decode(bmp)
        #expect(converted.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(converted.bitmap, ColorFixtures.photo) < 1)
        let kept = try BMPCoder().decode(bmp, options: Self.keep)
        #expect(kept.bitmap == Self.stored && kept.colorProfile?.description == "Calibrated RGB")
        // The BMP encoder embeds a kept profile (BITMAPV5HEADER, PROFILE_EMBEDDED).
        let written = try BMPCoder().encode(kept, as: .bmp)
        #expect(try BMPCoder().decode(written, options: Self.keep).colorProfile == kept.colorProfile)
        #expect(ColorFixtures.meanDeltaE(try BMPCoder().decode(written).bitmap, ColorFixtures.photo) < 1)
        // Zero endpoints (what many writers leave): untagged.
        let zero = try BMPCoder().decode(ColorFixtures.calibratedBMP(Self.stored, endpoints: Array(repeating: 0, count: 9), gamma: 0))
        #expect(!zero.metadata.contains(.colorConverted) && zero.bitmap == Self.stored)
    }
}
