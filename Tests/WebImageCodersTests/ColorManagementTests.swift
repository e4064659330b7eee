import CLCMS2
import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import WebImageColor
@testable import WebImageCoders

/// Tagged images come out in sRGB (issue 31): a photo converted into a wide-gamut space with
/// lcms2 itself and tagged with that profile decodes back to the photo's sRGB colours within
/// 1 ΔE (CIEDE2000) mean; read as if it were sRGB (the old behaviour) it is far off.
@Suite(.onOwnThreads) struct ColorManagementTests {
    // MARK: Tests

    @Test(arguments: ["adobe", "prophoto"])
    func aTaggedPNGDecodesToTheColoursOfThePhoto(space: String) throws {
        let profile = space == "adobe" ? ColorFixtures.adobeRGB : ColorFixtures.proPhoto
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, profile)
        let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), profile)
        let decoded = try PNGCoder().decode(png)
        #expect(decoded.metadata.contains(.colorConverted))
        let managed = ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo)
        let unmanaged = ColorFixtures.meanDeltaE(stored, ColorFixtures.photo)
        #expect(managed < 1, "mean ΔE2000 \(managed) against the photo")
        #expect(unmanaged > 3, "the stored numbers read as sRGB are off (ΔE \(unmanaged)): the fixture tests something")
    }

    @Test(arguments: ["adobe", "prophoto"])
    func aTaggedJPEGDecodesToTheColoursOfThePhoto(space: String) throws {
        let profile = space == "adobe" ? ColorFixtures.adobeRGB : ColorFixtures.proPhoto
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, profile)
        let untagged = try JPEGCoder().encode(WebImage(bitmap: stored), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 1))
        let jpeg = ColorFixtures.tagJPEG(untagged, profile)
        let decoded = try JPEGCoder().decode(jpeg)
        #expect(decoded.metadata.contains(.colorConverted))
        // Against lcms2's own transform of the same decoded numbers: the same within rounding.
        var reference = try JPEGCoder().decode(untagged).bitmap
        #expect(ColorConversion.convert(&reference, profile: profile) == .converted)
        #expect(ColorFixtures.meanDeltaE(decoded.bitmap, reference) < 0.01)
        // And against the photo: within 1 ΔE mean (JPEG's loss included).
        let managed = ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo)
        #expect(managed < 1.5, "mean ΔE2000 \(managed) against the photo")
        #expect(ColorFixtures.meanDeltaE(try JPEGCoder().decode(untagged).bitmap, ColorFixtures.photo) > 3)
    }

    @Test func aProfileSplitOverManyAPP2SegmentsIsAssembled() throws {
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)
        let untagged = try JPEGCoder().encode(WebImage(bitmap: stored), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 1))
        let whole = try JPEGCoder().decode(ColorFixtures.tagJPEG(untagged, ColorFixtures.adobeRGB))
        let split = try JPEGCoder().decode(ColorFixtures.tagJPEG(untagged, ColorFixtures.adobeRGB, segmentBytes: 100))
        #expect(split.metadata.contains(.colorConverted))
        #expect(split.bitmap == whole.bitmap)
    }

    @Test(.enabled(if: ColorFixtures.installedProfile("SwappedRedAndGreen.icc") != nil, "colord-data's profiles are not installed (apt-get install colord-data): skipped"))
    func theSwappedRedAndGreenProfileMakesRedGreen() throws {
        let swapped = try #require(ColorFixtures.installedProfile("SwappedRedAndGreen.icc"))
        let red = try Bitmap(width: 8, height: 8, fill: RGBAColor(red: 230, green: 20, blue: 20, alpha: 255), hasAlpha: false)
        let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: red), as: .png), swapped)
        let pixel = try PNGCoder().decode(png).bitmap[4, 4]
        #expect(pixel.green > 150 && pixel.red < 100, "\(pixel)")
        let jpeg = ColorFixtures.tagJPEG(try JPEGCoder().encode(WebImage(bitmap: red), as: .jpeg), swapped)
        let jpegPixel = try JPEGCoder().decode(jpeg).bitmap[4, 4]
        #expect(jpegPixel.green > 150 && jpegPixel.red < 100, "\(jpegPixel)")
    }

    @Test(.enabled(if: ColorFixtures.installedProfile("AdobeRGB1998.icc") != nil, "colord-data's profiles are not installed (apt-get install colord-data): skipped"))
    func realAdobeAndProPhotoProfileFilesConvert() throws {
        for name in ["AdobeRGB1998.icc", "ProPhotoRGB.icc"] {
            let profile = try #require(ColorFixtures.installedProfile(name))
            let stored = ColorFixtures.intoSpace(ColorFixtures.photo, profile)
            let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), profile)
            let managed = ColorFixtures.meanDeltaE(try PNGCoder().decode(png).bitmap, ColorFixtures.photo)
            #expect(managed < 1, "\(name): mean ΔE2000 \(managed)")
            #expect(ColorConversion.description(of: profile)?.isEmpty == false)
        }
    }

    @Test func anSRGBProfileTouchesNoPixel() throws {
        let srgb = ColorFixtures.installedProfile("sRGB.icc") ?? ColorFixtures.sRGBProfile()
        let png = try PNGCoder().encode(WebImage(bitmap: ColorFixtures.photo), as: .png)
        let tagged = try PNGCoder().decode(ColorFixtures.tagPNG(png, srgb))
        #expect(!tagged.metadata.contains(.colorConverted))
        #expect(tagged.bitmap == ColorFixtures.photo)
        var copy = ColorFixtures.photo
        #expect(ColorConversion.convert(&copy, profile: srgb) == .alreadySRGB)
    }

    @Test(arguments: [0, 60, 131])
    func aTruncatedProfileLeavesTheImageUntagged(keep: Int) throws {
        let bad = ColorFixtures.adobeRGB.prefix(keep)
        let png = try PNGCoder().encode(WebImage(bitmap: ColorFixtures.photo), as: .png)
        let decoded = try PNGCoder().decode(ColorFixtures.tagPNG(png, bad.isEmpty ? Data([1, 2, 3]) : Data(bad)))
        #expect(!decoded.metadata.contains(.colorConverted))
        #expect(decoded.bitmap == ColorFixtures.photo)
        let jpeg = try JPEGCoder().encode(WebImage(bitmap: ColorFixtures.photo), as: .jpeg)
        let plain = try JPEGCoder().decode(jpeg)
        let tagged = try JPEGCoder().decode(ColorFixtures.tagJPEG(jpeg, bad.isEmpty ? Data([1, 2, 3]) : Data(bad)))
        #expect(tagged.bitmap == plain.bitmap)
        var copy = ColorFixtures.photo
        guard case .unusable = ColorConversion.convert(&copy, profile: Data(bad)) else {
            Issue.record("a truncated profile was used")
            return
        }
    }

    @Test func aCorruptedProfileBodyIsRefusedNotACrash() throws {
        // A valid header and tag count with the tag table overwritten by noise.
        var noisy = [UInt8](ColorFixtures.adobeRGB)
        for index in 132..<noisy.count { noisy[index] = UInt8(truncatingIfNeeded: index &* 151 &+ 7) }
        var copy = ColorFixtures.photo
        let outcome = ColorConversion.convert(&copy, profile: Data(noisy))
        if case .converted = outcome { Issue.record("noise converted the pixels") }
    }

    /// A small deterministic fuzz of the profile path (the libFuzzer harness is Fuzz/fuzz.sh ...
    /// ICC): real and lcms2-made profiles with bytes flipped, tag tables rewritten and tails cut,
    /// through every layout and the summary. Nothing may crash; what converts must keep alpha.
    @Test func mutatedProfilesNeverCrash() throws {
        var seeds = [ColorFixtures.adobeRGB, ColorFixtures.proPhoto, ColorFixtures.sRGBProfile()]
        for name in ["AdobeRGB1998.icc", "ProPhotoRGB.icc", "SwappedRedAndGreen.icc"] {
            if let profile = ColorFixtures.installedProfile(name) { seeds.append(profile) }
        }
        var random = SplitMix64(seed: 31)
        // 240 rounds of the RGB profiles, and 8 of ghostscript's CMYK profile (a LUT-based one
        // whose transforms take lcms2 far longer to build).
        let cmyk = CMYKFixtures.defaultCMYKProfile
        for round in 0..<(cmyk == nil ? 240 : 248) {
            var bytes = [UInt8](round >= 240 ? cmyk! : seeds[round % seeds.count])
            switch round % 4 {
            case 0:  // flip bytes anywhere
                for _ in 0..<(1 + Int(random.next() % 16)) { bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
            case 1:  // an absurd tag count or tag offsets
                if bytes.count > 140 { for index in 128..<min(bytes.count, 140 + Int(random.next() % 64)) { bytes[index] = UInt8(truncatingIfNeeded: random.next()) } }
            case 2:  // cut short
                bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
            default:  // the declared size and colour space rewritten
                if bytes.count > 20 { for index in [0, 1, 2, 3, 16, 17, 18, 19] { bytes[index] = UInt8(truncatingIfNeeded: random.next()) } }
            }
            let profile = Data(bytes)
            var bitmap = try Bitmap(width: 4, height: 2, fill: RGBAColor(red: 200, green: 90, blue: 30, alpha: 77))
            if ColorConversion.convert(&bitmap, profile: profile) == .converted {
                #expect(bitmap[1, 1].alpha == 77, "round \(round): alpha kept")
            }
            var cmyk = [UInt8](repeating: 100, count: 4 * 2 * 4)
            _ = ColorConversion.convert(&cmyk, width: 4, height: 2, bytesPerRow: 16, profile: profile, layout: .cmyk(inverted: round % 2 == 0))
            _ = ColorConversion.summary(of: profile)
            _ = ColorConversion.outcome(of: profile, layout: .rgb)
        }
    }

    @Test func aCMYKProfileOnAnRGBImageIsRefused() throws {
        // lcms2's ink-limiting device link is CMYK: not a profile for RGB pixels.
        let link = cmsCreateInkLimitingDeviceLink(cmsSigCmykData, 300)
        defer { cmsCloseProfile(link) }
        var length: UInt32 = 0
        cmsSaveProfileToMem(link, nil, &length)
        var data = Data(count: Int(length))
        _ = data.withUnsafeMutableBytes { cmsSaveProfileToMem(link, $0.baseAddress, &length) }
        var copy = ColorFixtures.photo
        guard case .unusable(let reason) = ColorConversion.convert(&copy, profile: data) else {
            Issue.record("a CMYK profile was used on RGB pixels")
            return
        }
        #expect(reason.contains("CMYK"), "\(reason)")
        #expect(copy == ColorFixtures.photo)
    }

    @Test func aPNGGammaAloneIsNotApplied() throws {
        // Decision: gAMA/cHRM without iCCP are read, not applied (libvips, Pillow, thumbor and
        // every PngSuite reference decoder use the samples as they are).
        let grey = try Bitmap(width: 4, height: 4, fill: RGBAColor(red: 128, green: 128, blue: 128, alpha: 255), hasAlpha: false)
        let png = try PNGCoder().encode(WebImage(bitmap: grey), as: .png)
        let gamma = ColorFixtures.insertAfterIHDR(png, ColorFixtures.chunk("gAMA", withUnsafeBytes(of: UInt32(100_000).bigEndian) { Data($0) }))
        let decoded = try PNGCoder().decode(gamma)
        #expect(!decoded.metadata.contains(.colorConverted))
        #expect(decoded.bitmap == grey)
        // An iCCP beside it wins and is applied.
        let tagged = ColorFixtures.tagPNG(gamma, ColorFixtures.adobeRGB)
        #expect(try PNGCoder().decode(tagged).metadata.contains(.colorConverted))
    }

    @Test func aDisplayP3CICPPNGIsConverted() throws {
        // cICP 12/13 (Display P3, sRGB curve): the same as an iCCP of lcms2's P3 profile.
        let p3 = try #require(ColorConversion.profile(primaries: 12, transfer: 13))
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, p3)
        let png = try PNGCoder().encode(WebImage(bitmap: stored), as: .png)
        let cicp = ColorFixtures.insertAfterIHDR(png, ColorFixtures.chunk("cICP", Data([12, 13, 0, 1])))
        let decoded = try PNGCoder().decode(cicp)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo) < 1)
        // sRGB code points and HDR curves are left as they are.
        #expect(ColorConversion.profile(primaries: 1, transfer: 13) == nil)
        #expect(ColorConversion.profile(primaries: 9, transfer: 16) == nil)
        #expect(ColorConversion.name(primaries: 12, transfer: 13) == "Display P3")
    }

    @Test(.enabled(if: CMYKFixtures.defaultCMYKProfile != nil, "ghostscript's CMYK profile is not installed (apt-get install libgs-common): skipped"))
    func aCMYKJPEGWithItsProfileDecodesAsLcms2Does() throws {
        let profile = try #require(CMYKFixtures.defaultCMYKProfile)
        let photo = ColorFixtures.photo
        let cmyk = CMYKFixtures.separate(photo, profile)
        let plain = CMYKFixtures.jpeg(cmyk, size: photo.size)
        let tagged = ColorFixtures.tagJPEG(plain, profile)
        let decoded = try JPEGCoder().decode(tagged)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(decoded.bitmap.isOpaque)
        // Against lcms2's own conversion of the CMYK numbers (JPEG's loss at quality 100 apart).
        let reference = try CMYKFixtures.reference(cmyk, size: photo.size, profile)
        let managed = ColorFixtures.meanDeltaE(decoded.bitmap, reference)
        #expect(managed < 1, "mean ΔE2000 \(managed) against lcms2's transform")
        // Without the profile the plain formula is used: visibly different.
        let untagged = try JPEGCoder().decode(plain)
        #expect(!untagged.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(untagged.bitmap, reference) > 3)
        // An RGB profile on CMYK data is refused: the plain formula again.
        let wrong = try JPEGCoder().decode(ColorFixtures.tagJPEG(plain, ColorFixtures.adobeRGB))
        #expect(wrong.bitmap == untagged.bitmap)
    }

    @Test func everyFrameOfATaggedAPNGIsConverted() throws {
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)
        let frames = [ImageFrame(bitmap: stored, duration: 0.1), ImageFrame(bitmap: stored, duration: 0.1)]
        let apng = try PNGCoder().encode(try WebImage(frames: frames, loopCount: 0), as: .png)
        let tagged = ColorFixtures.tagPNG(apng, ColorFixtures.adobeRGB)
        let decoded = try PNGCoder().decode(tagged)
        #expect(decoded.frameCount == 2)
        #expect(decoded.metadata.contains(.colorConverted))
        for index in 0..<2 {
            #expect(ColorFixtures.meanDeltaE(try decoded.frame(at: index).bitmap, ColorFixtures.photo) < 1, "frame \(index)")
        }
    }

    @Test func aBMPV5EmbeddedProfileIsConverted() throws {
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)
        let bmp = ColorFixtures.embeddedProfileBMP(stored, profile: ColorFixtures.adobeRGB)
        let decoded = try BMPCoder().decode(bmp)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo) < 1)
        // Without the profile the same file decodes as it is stored.
        let untagged = try BMPCoder().decode(ColorFixtures.embeddedProfileBMP(stored, profile: Data()))
        #expect(untagged.bitmap == stored)
    }

    @Test func aGIFWithAnICCRGBG1012ProfileHasItsPaletteConverted() throws {
        // Few colours, so the GIF encoder's palette holds them exactly.
        let red = try Bitmap(width: 8, height: 8, fill: RGBAColor(red: 200, green: 60, blue: 40, alpha: 255), hasAlpha: false)
        let stored = ColorFixtures.intoSpace(red, ColorFixtures.adobeRGB)
        let gif = try GIFCoder().encode(WebImage(bitmap: stored), as: .gif)
        // The application extension right after the header's global colour table.
        let header = gif.prefix(13)
        let tableBytes = gif[gif.startIndex + 10] & 0x80 != 0 ? 3 * (2 << Int(gif[gif.startIndex + 10] & 0x07)) : 0
        var extensionBlock = Data([0x21, 0xFF, 11]) + Data("ICCRGBG1012".utf8)
        var rest = ColorFixtures.adobeRGB[...]
        while !rest.isEmpty {
            let piece = rest.prefix(255)
            extensionBlock += Data([UInt8(piece.count)]) + piece
            rest = rest.dropFirst(piece.count)
        }
        extensionBlock += Data([0])
        let tagged = header + gif.dropFirst(13).prefix(tableBytes) + extensionBlock + gif.dropFirst(13 + tableBytes)
        let decoded = try GIFCoder().decode(Data(tagged))
        #expect(decoded.metadata.contains(.colorConverted))
        let pixel = decoded.bitmap[4, 4]
        #expect(abs(Int(pixel.red) - 200) <= 2 && abs(Int(pixel.green) - 60) <= 2 && abs(Int(pixel.blue) - 40) <= 2, "\(pixel)")
        #expect(try GIFCoder().decode(gif).bitmap == stored)
    }

    @Test func aPNGThumbnailIsConvertedToo() throws {
        let big = try Bitmap(width: 256, height: 256, fill: RGBAColor(red: 200, green: 60, blue: 40, alpha: 255), hasAlpha: false)
        let stored = ColorFixtures.intoSpace(big, ColorFixtures.adobeRGB)
        let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), ColorFixtures.adobeRGB)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let thumbnail = try PNGCoder().decode(png, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 32, height: 32))
        #expect(thumbnail.metadata.contains(.colorConverted))
        let pixel = thumbnail.bitmap[16, 16]
        #expect(abs(Int(pixel.red) - 200) <= 2 && abs(Int(pixel.green) - 60) <= 2 && abs(Int(pixel.blue) - 40) <= 2, "\(pixel)")
    }
}
