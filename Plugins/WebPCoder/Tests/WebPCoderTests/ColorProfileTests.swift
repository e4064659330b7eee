import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport
import WebPCoder

/// A WebP with an ICCP chunk decodes to the colours of the photo it was made from (issue 31).
@Suite(.onOwnThreads) struct ColorProfileTests {
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

/// ``ColorProfileHandling/keep`` through the WebP encoder (issue 31): the profile goes into an
/// ICCP chunk byte for byte, animations included, and a default decode converts it.
@Suite(.onOwnThreads) struct WebPColorProfileKeepingTests {
    static var keep: ImageDecodeOptions { ColorFixtures.keepProfile }

    @Test func aKeptProfileRoundTripsThroughTheEncoder() throws {
        let (stored, image) = ColorFixtures.keptAdobePhoto
        for coder in [WebPCoder(lossless: true), WebPCoder()] {
            let webp = try coder.encode(image, as: .webp)
            #expect(WebPColorProfileProbe.profile(in: webp) == ColorFixtures.adobeRGB)
            let kept = try coder.decode(webp, options: Self.keep)
            #expect(kept.colorProfile?.data == ColorFixtures.adobeRGB && !kept.metadata.contains(.colorConverted))
            let converted = try coder.decode(webp)
            #expect(converted.colorProfile == nil && converted.metadata.contains(.colorConverted))
            #expect(ColorFixtures.meanDeltaE(converted.bitmap, ColorFixtures.photo) < 2.5)
        }
        // An animation: frames keep their numbers, the file its profile.
        var animation = try WebImage(frames: [ImageFrame(bitmap: stored, duration: 0.1), ImageFrame(bitmap: ColorFixtures.photo, duration: 0.1)])
        animation.colorProfile = ColorProfile(data: ColorFixtures.adobeRGB)
        let animated = try WebPCoder(lossless: true).encode(animation, as: .webp)
        let kept = try WebPCoder().decode(animated, options: Self.keep)
        #expect(kept.frameCount == 2 && kept.colorProfile?.data == ColorFixtures.adobeRGB)
        #expect(try kept.frame(at: 1).bitmap == ColorFixtures.photo)
    }
}

/// Reads the ICCP chunk of a WebP file as a reader outside this plug-in would.
enum WebPColorProfileProbe {
    static func profile(in data: Data) -> Data? {
        let bytes = [UInt8](data)
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4] == [0x49, 0x43, 0x43, 0x50][...] { return Data(bytes[offset + 8..<min(bytes.count, offset + 8 + size)]) }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}
