import CLCMS2
import CZlib
import Foundation
import Testing
import WebImageCore
@testable import WebImageCoders

/// Tagged images come out in sRGB (issue 31): a photo converted into a wide-gamut space with
/// lcms2 itself and tagged with that profile decodes back to the photo's sRGB colours within
/// 1 ΔE (CIEDE2000) mean; read as if it were sRGB (the old behaviour) it is far off.
@Suite struct ColorManagementTests {
    /// A photo-like sRGB picture: smooth gradients through saturated and neutral colours.
    static let photo: Bitmap = {
        let width = 96, height = 64
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                bytes[index] = UInt8(truncatingIfNeeded: 40 + x * 2)
                bytes[index + 1] = UInt8(truncatingIfNeeded: 30 + y * 3)
                bytes[index + 2] = UInt8(truncatingIfNeeded: 200 - x - y)
            }
        }
        return try! Bitmap(width: width, height: height, bytes: bytes, hasAlpha: false)
    }()

    // MARK: Profiles and fixtures (made with lcms2 itself)

    /// An RGB profile from lcms2: `gamma` and xy primaries (R, G, B) with a D65 white
    /// (Adobe RGB (1998): 2.2, (0.64, 0.33), (0.21, 0.71), (0.15, 0.06)).
    static func rgbProfile(gamma: Double, primaries p: [Double], white: (Double, Double) = (0.3127, 0.3290)) -> Data {
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var triple = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: p[0], y: p[1], Y: 1), Green: cmsCIExyY(x: p[2], y: p[3], Y: 1), Blue: cmsCIExyY(x: p[4], y: p[5], Y: 1))
        let curve = cmsBuildGamma(nil, gamma)
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&whitePoint, &triple, $0.baseAddress) }
        defer { cmsCloseProfile(profile) }
        var length: UInt32 = 0
        cmsSaveProfileToMem(profile, nil, &length)
        var data = Data(count: Int(length))
        _ = data.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &length) }
        return data
    }

    static let adobeRGB = rgbProfile(gamma: 2.2, primaries: [0.64, 0.33, 0.21, 0.71, 0.15, 0.06])
    /// ProPhoto RGB (ROMM): D50 white, gamma 1.8.
    static let proPhoto = rgbProfile(gamma: 1.8, primaries: [0.7347, 0.2653, 0.1596, 0.8404, 0.0366, 0.0001], white: (0.3457, 0.3585))

    /// A real profile file of Debian's colord-data or icc-profiles-free, or `nil` (the test then
    /// says it skips that case).
    static func installedProfile(_ name: String) -> Data? {
        FileManager.default.contents(atPath: "/usr/share/color/icc/colord/\(name)")
    }

    /// `bitmap` (sRGB) converted into the space of `profile` by lcms2 (relative colorimetric).
    static func intoSpace(_ bitmap: Bitmap, _ profile: Data) -> Bitmap {
        var bytes = bitmap.bytes
        profile.withUnsafeBytes { raw in
            let target = cmsOpenProfileFromMem(raw.baseAddress, UInt32(raw.count))
            let srgb = cmsCreate_sRGBProfile()
            defer { cmsCloseProfile(target); cmsCloseProfile(srgb) }
            let transform = cmsCreateTransform(srgb, wi_lcms_type_rgba_8(), target, wi_lcms_type_rgba_8(), UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_COPY_ALPHA))
            defer { cmsDeleteTransform(transform) }
            let input = bytes
            cmsDoTransform(transform, input, &bytes, UInt32(bitmap.width * bitmap.height))
        }
        return try! Bitmap(width: bitmap.width, height: bitmap.height, bytes: bytes, hasAlpha: bitmap.hasAlpha)
    }

    /// The mean CIEDE2000 difference between two sRGB bitmaps of one size.
    static func meanDeltaE(_ a: Bitmap, _ b: Bitmap) -> Double {
        let srgb = cmsCreate_sRGBProfile()
        let lab = cmsCreateLab4Profile(nil)
        defer { cmsCloseProfile(srgb); cmsCloseProfile(lab) }
        let labDouble = UInt32(1 << 22) | UInt32(10 << 16) | UInt32(3 << 3)  // TYPE_Lab_DBL
        let transform = cmsCreateTransform(srgb, wi_lcms_type_rgba_8(), lab, labDouble, UInt32(INTENT_RELATIVE_COLORIMETRIC), 0)
        defer { cmsDeleteTransform(transform) }
        let count = a.width * a.height
        var labA = [cmsCIELab](repeating: cmsCIELab(), count: count), labB = labA
        cmsDoTransform(transform, a.bytes, &labA, UInt32(count))
        cmsDoTransform(transform, b.bytes, &labB, UInt32(count))
        var total = 0.0
        for index in 0..<count { total += cmsCIE2000DeltaE(&labA[index], &labB[index], 1, 1, 1) }
        return total / Double(count)
    }

    /// JPEG `data` with `profile` as APP2 ICC_PROFILE segments of at most `segmentBytes` each,
    /// right after SOI.
    static func tagJPEG(_ data: Data, _ profile: Data, segmentBytes: Int = 65_519) -> Data {
        let pieces = stride(from: 0, to: profile.count, by: segmentBytes).map { profile[profile.startIndex + $0..<profile.startIndex + min(profile.count, $0 + segmentBytes)] }
        var out = Data(data.prefix(2))
        for (index, piece) in pieces.enumerated() {
            let length = 2 + 12 + 2 + piece.count
            out += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]
            out += Data("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(pieces.count)]
            out += piece
        }
        return out + data.dropFirst(2)
    }

    /// A PNG chunk with its length and CRC.
    static func chunk(_ type: String, _ payload: Data) -> Data {
        let typed = Data(type.utf8) + payload
        let crc = typed.withUnsafeBytes { UInt32(crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, UInt32($0.count))) }
        return withUnsafeBytes(of: UInt32(payload.count).bigEndian) { Data($0) } + typed + withUnsafeBytes(of: crc.bigEndian) { Data($0) }
    }

    /// PNG `data` with `chunks` inserted after IHDR.
    static func insertAfterIHDR(_ data: Data, _ chunks: Data) -> Data {
        data.prefix(33) + chunks + data.dropFirst(33)
    }

    /// PNG `data` tagged with `profile` (iCCP, zlib-compressed).
    static func tagPNG(_ data: Data, _ profile: Data) -> Data {
        var compressedLength = compressBound(UInt(profile.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        _ = profile.withUnsafeBytes { compress(&compressed, &compressedLength, $0.bindMemory(to: UInt8.self).baseAddress, UInt(profile.count)) }
        let payload = Data("test profile".utf8) + [0, 0] + compressed.prefix(Int(compressedLength))
        return insertAfterIHDR(data, chunk("iCCP", payload))
    }

    // MARK: Tests

    @Test(arguments: ["adobe", "prophoto"])
    func aTaggedPNGDecodesToTheColoursOfThePhoto(space: String) throws {
        let profile = space == "adobe" ? Self.adobeRGB : Self.proPhoto
        let stored = Self.intoSpace(Self.photo, profile)
        let png = Self.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), profile)
        let decoded = try PNGCoder().decode(png)
        #expect(decoded.metadata.contains(.colorConverted))
        let managed = Self.meanDeltaE(decoded.bitmap, Self.photo)
        let unmanaged = Self.meanDeltaE(stored, Self.photo)
        #expect(managed < 1, "mean ΔE2000 \(managed) against the photo")
        #expect(unmanaged > 3, "the stored numbers read as sRGB are off (ΔE \(unmanaged)): the fixture tests something")
    }

    @Test(arguments: ["adobe", "prophoto"])
    func aTaggedJPEGDecodesToTheColoursOfThePhoto(space: String) throws {
        let profile = space == "adobe" ? Self.adobeRGB : Self.proPhoto
        let stored = Self.intoSpace(Self.photo, profile)
        let untagged = try JPEGCoder().encode(WebImage(bitmap: stored), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 1))
        let jpeg = Self.tagJPEG(untagged, profile)
        let decoded = try JPEGCoder().decode(jpeg)
        #expect(decoded.metadata.contains(.colorConverted))
        // Against lcms2's own transform of the same decoded numbers: the same within rounding.
        var reference = try JPEGCoder().decode(untagged).bitmap
        #expect(ColorConversion.convert(&reference, profile: profile) == .converted)
        #expect(Self.meanDeltaE(decoded.bitmap, reference) < 0.01)
        // And against the photo: within 1 ΔE mean (JPEG's loss included).
        let managed = Self.meanDeltaE(decoded.bitmap, Self.photo)
        #expect(managed < 1.5, "mean ΔE2000 \(managed) against the photo")
        #expect(Self.meanDeltaE(try JPEGCoder().decode(untagged).bitmap, Self.photo) > 3)
    }

    @Test func aProfileSplitOverManyAPP2SegmentsIsAssembled() throws {
        let stored = Self.intoSpace(Self.photo, Self.adobeRGB)
        let untagged = try JPEGCoder().encode(WebImage(bitmap: stored), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 1))
        let whole = try JPEGCoder().decode(Self.tagJPEG(untagged, Self.adobeRGB))
        let split = try JPEGCoder().decode(Self.tagJPEG(untagged, Self.adobeRGB, segmentBytes: 100))
        #expect(split.metadata.contains(.colorConverted))
        #expect(split.bitmap == whole.bitmap)
    }

    @Test func theSwappedRedAndGreenProfileMakesRedGreen() throws {
        guard let swapped = Self.installedProfile("SwappedRedAndGreen.icc") else {
            Issue.record("skipped: /usr/share/color/icc/colord/SwappedRedAndGreen.icc is missing (apt-get install colord-data)")
            return
        }
        let red = try Bitmap(width: 8, height: 8, fill: RGBAColor(red: 230, green: 20, blue: 20, alpha: 255), hasAlpha: false)
        let png = Self.tagPNG(try PNGCoder().encode(WebImage(bitmap: red), as: .png), swapped)
        let pixel = try PNGCoder().decode(png).bitmap[4, 4]
        #expect(pixel.green > 150 && pixel.red < 100, "\(pixel)")
        let jpeg = Self.tagJPEG(try JPEGCoder().encode(WebImage(bitmap: red), as: .jpeg), swapped)
        let jpegPixel = try JPEGCoder().decode(jpeg).bitmap[4, 4]
        #expect(jpegPixel.green > 150 && jpegPixel.red < 100, "\(jpegPixel)")
    }

    @Test func realAdobeAndProPhotoProfileFilesConvert() throws {
        for name in ["AdobeRGB1998.icc", "ProPhotoRGB.icc"] {
            guard let profile = Self.installedProfile(name) else {
                Issue.record("skipped: /usr/share/color/icc/colord/\(name) is missing (apt-get install colord-data)")
                continue
            }
            let stored = Self.intoSpace(Self.photo, profile)
            let png = Self.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), profile)
            let managed = Self.meanDeltaE(try PNGCoder().decode(png).bitmap, Self.photo)
            #expect(managed < 1, "\(name): mean ΔE2000 \(managed)")
            #expect(ColorConversion.description(of: profile)?.isEmpty == false)
        }
    }

    @Test func anSRGBProfileTouchesNoPixel() throws {
        let srgb = Self.installedProfile("sRGB.icc") ?? Self.rgbProfileSRGBLike()
        let png = try PNGCoder().encode(WebImage(bitmap: Self.photo), as: .png)
        let tagged = try PNGCoder().decode(Self.tagPNG(png, srgb))
        #expect(!tagged.metadata.contains(.colorConverted))
        #expect(tagged.bitmap == Self.photo)
        var copy = Self.photo
        #expect(ColorConversion.convert(&copy, profile: srgb) == .alreadySRGB)
    }

    /// lcms2's own sRGB profile, saved.
    static func rgbProfileSRGBLike() -> Data {
        let profile = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(profile) }
        var length: UInt32 = 0
        cmsSaveProfileToMem(profile, nil, &length)
        var data = Data(count: Int(length))
        _ = data.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &length) }
        return data
    }

    @Test(arguments: [0, 60, 131])
    func aTruncatedProfileLeavesTheImageUntagged(keep: Int) throws {
        let bad = Self.adobeRGB.prefix(keep)
        let png = try PNGCoder().encode(WebImage(bitmap: Self.photo), as: .png)
        let decoded = try PNGCoder().decode(Self.tagPNG(png, bad.isEmpty ? Data([1, 2, 3]) : Data(bad)))
        #expect(!decoded.metadata.contains(.colorConverted))
        #expect(decoded.bitmap == Self.photo)
        let jpeg = try JPEGCoder().encode(WebImage(bitmap: Self.photo), as: .jpeg)
        let plain = try JPEGCoder().decode(jpeg)
        let tagged = try JPEGCoder().decode(Self.tagJPEG(jpeg, bad.isEmpty ? Data([1, 2, 3]) : Data(bad)))
        #expect(tagged.bitmap == plain.bitmap)
        var copy = Self.photo
        guard case .unusable = ColorConversion.convert(&copy, profile: Data(bad)) else {
            Issue.record("a truncated profile was used")
            return
        }
    }

    @Test func aCorruptedProfileBodyIsRefusedNotACrash() throws {
        // A valid header and tag count with the tag table overwritten by noise.
        var noisy = [UInt8](Self.adobeRGB)
        for index in 132..<noisy.count { noisy[index] = UInt8(truncatingIfNeeded: index &* 151 &+ 7) }
        var copy = Self.photo
        let outcome = ColorConversion.convert(&copy, profile: Data(noisy))
        if case .converted = outcome { Issue.record("noise converted the pixels") }
    }

    @Test func aCMYKProfileOnAnRGBImageIsRefused() throws {
        // lcms2's ink-limiting device link is CMYK: not a profile for RGB pixels.
        let link = cmsCreateInkLimitingDeviceLink(cmsSigCmykData, 300)
        defer { cmsCloseProfile(link) }
        var length: UInt32 = 0
        cmsSaveProfileToMem(link, nil, &length)
        var data = Data(count: Int(length))
        _ = data.withUnsafeMutableBytes { cmsSaveProfileToMem(link, $0.baseAddress, &length) }
        var copy = Self.photo
        guard case .unusable(let reason) = ColorConversion.convert(&copy, profile: data) else {
            Issue.record("a CMYK profile was used on RGB pixels")
            return
        }
        #expect(reason.contains("CMYK"), "\(reason)")
        #expect(copy == Self.photo)
    }

    @Test func aPNGGammaAloneIsNotApplied() throws {
        // Decision: gAMA/cHRM without iCCP are read, not applied (libvips, Pillow, thumbor and
        // every PngSuite reference decoder use the samples as they are).
        let grey = try Bitmap(width: 4, height: 4, fill: RGBAColor(red: 128, green: 128, blue: 128, alpha: 255), hasAlpha: false)
        let png = try PNGCoder().encode(WebImage(bitmap: grey), as: .png)
        let gamma = Self.insertAfterIHDR(png, Self.chunk("gAMA", withUnsafeBytes(of: UInt32(100_000).bigEndian) { Data($0) }))
        let decoded = try PNGCoder().decode(gamma)
        #expect(!decoded.metadata.contains(.colorConverted))
        #expect(decoded.bitmap == grey)
        // An iCCP beside it wins and is applied.
        let tagged = Self.tagPNG(gamma, Self.adobeRGB)
        #expect(try PNGCoder().decode(tagged).metadata.contains(.colorConverted))
    }

    @Test func aDisplayP3CICPPNGIsConverted() throws {
        // cICP 12/13 (Display P3, sRGB curve): the same as an iCCP of lcms2's P3 profile.
        let p3 = try #require(ColorConversion.profile(primaries: 12, transfer: 13))
        let stored = Self.intoSpace(Self.photo, p3)
        let png = try PNGCoder().encode(WebImage(bitmap: stored), as: .png)
        let cicp = Self.insertAfterIHDR(png, Self.chunk("cICP", Data([12, 13, 0, 1])))
        let decoded = try PNGCoder().decode(cicp)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(Self.meanDeltaE(decoded.bitmap, Self.photo) < 1)
        // sRGB code points and HDR curves are left as they are.
        #expect(ColorConversion.profile(primaries: 1, transfer: 13) == nil)
        #expect(ColorConversion.profile(primaries: 9, transfer: 16) == nil)
        #expect(ColorConversion.name(primaries: 12, transfer: 13) == "Display P3")
    }

    @Test func aPNGThumbnailIsConvertedToo() throws {
        let big = try Bitmap(width: 256, height: 256, fill: RGBAColor(red: 200, green: 60, blue: 40, alpha: 255), hasAlpha: false)
        let stored = Self.intoSpace(big, Self.adobeRGB)
        let png = Self.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), Self.adobeRGB)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let thumbnail = try PNGCoder().decode(png, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 32, height: 32))
        #expect(thumbnail.metadata.contains(.colorConverted))
        let pixel = thumbnail.bitmap[16, 16]
        #expect(abs(Int(pixel.red) - 200) <= 2 && abs(Int(pixel.green) - 60) <= 2 && abs(Int(pixel.blue) - 40) <= 2, "\(pixel)")
    }
}
