import CLCMS2
import CZlib
public import Foundation
public import WebImageCore

/// Fixtures for colour-management tests, made with Little CMS 2 itself: RGB profiles, a
/// photo-like sRGB picture converted into another space, files of the built-in formats tagged
/// with a profile, and the mean CIEDE2000 difference of two pictures.
public enum ColorFixtures {
    /// A photo-like sRGB picture: smooth gradients through saturated and neutral colours.
    public static let photo: Bitmap = {
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
    public static func rgbProfile(gamma: Double, primaries p: [Double], white: (Double, Double) = (0.3127, 0.3290)) -> Data {
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var triple = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: p[0], y: p[1], Y: 1), Green: cmsCIExyY(x: p[2], y: p[3], Y: 1), Blue: cmsCIExyY(x: p[4], y: p[5], Y: 1))
        let curve = cmsBuildGamma(nil, gamma)
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return saved(curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&whitePoint, &triple, $0.baseAddress) })
    }

    /// The bytes of an lcms2 profile, which is then closed.
    private static func saved(_ profile: cmsHPROFILE?) -> Data {
        defer { cmsCloseProfile(profile) }
        var length: UInt32 = 0
        cmsSaveProfileToMem(profile, nil, &length)
        var data = Data(count: Int(length))
        _ = data.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &length) }
        return data
    }

    /// Adobe RGB (1998) as lcms2 makes it: D65 white, gamma 2.2 (no description tag).
    public static let adobeRGB = rgbProfile(gamma: 2.2, primaries: [0.64, 0.33, 0.21, 0.71, 0.15, 0.06])
    /// ProPhoto RGB (ROMM): D50 white, gamma 1.8.
    public static let proPhoto = rgbProfile(gamma: 1.8, primaries: [0.7347, 0.2653, 0.1596, 0.8404, 0.0366, 0.0001], white: (0.3457, 0.3585))

    /// A real profile file of Debian's colord-data or icc-profiles-free, or `nil` (the test then
    /// says it skips that case).
    public static func installedProfile(_ name: String) -> Data? {
        FileManager.default.contents(atPath: "/usr/share/color/icc/colord/\(name)")
    }

    /// `bitmap` (sRGB) converted into the space of `profile` by lcms2 (relative colorimetric).
    public static func intoSpace(_ bitmap: Bitmap, _ profile: Data) -> Bitmap {
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
    public static func meanDeltaE(_ a: Bitmap, _ b: Bitmap) -> Double {
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
    public static func tagJPEG(_ data: Data, _ profile: Data, segmentBytes: Int = 65_519) -> Data {
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
    public static func chunk(_ type: String, _ payload: Data) -> Data {
        let typed = Data(type.utf8) + payload
        let crc = typed.withUnsafeBytes { UInt32(crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, UInt32($0.count))) }
        return withUnsafeBytes(of: UInt32(payload.count).bigEndian) { Data($0) } + typed + withUnsafeBytes(of: crc.bigEndian) { Data($0) }
    }

    /// PNG `data` with `chunks` inserted after IHDR.
    public static func insertAfterIHDR(_ data: Data, _ chunks: Data) -> Data {
        data.prefix(33) + chunks + data.dropFirst(33)
    }

    /// PNG `data` tagged with `profile` (iCCP, zlib-compressed).
    public static func tagPNG(_ data: Data, _ profile: Data) -> Data {
        var compressedLength = compressBound(UInt(profile.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        _ = profile.withUnsafeBytes { compress(&compressed, &compressedLength, $0.bindMemory(to: UInt8.self).baseAddress, UInt(profile.count)) }
        let payload = Data("test profile".utf8) + [0, 0] + compressed.prefix(Int(compressedLength))
        return insertAfterIHDR(data, chunk("iCCP", payload))
    }

    /// WebP `data` (a simple-format file: one VP8 or VP8L chunk) rewritten in the extended
    /// format with `profile` as its ICCP chunk.
    public static func tagWebP(_ data: Data, _ profile: Data, size: PixelSize, hasAlpha: Bool) -> Data {
        func le32(_ value: Int) -> Data { withUnsafeBytes(of: UInt32(value).littleEndian) { Data($0) } }
        func le24(_ value: Int) -> Data { Data([UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF)]) }
        func riffChunk(_ fourCC: String, _ payload: Data) -> Data {
            Data(fourCC.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? Data([0]) : Data())
        }
        let image = data.dropFirst(12)  // the VP8/VP8L chunk, whole
        let flags: UInt8 = 0x20 | (hasAlpha ? 0x10 : 0)
        let vp8x = riffChunk("VP8X", Data([flags, 0, 0, 0]) + le24(size.width - 1) + le24(size.height - 1))
        let body = Data("WEBP".utf8) + vp8x + riffChunk("ICCP", profile) + image
        return Data("RIFF".utf8) + le32(body.count) + body
    }

    /// lcms2's own sRGB profile, saved.
    public static func sRGBProfile() -> Data {
        saved(cmsCreate_sRGBProfile())
    }

    /// `profile` with its description (`desc` tag) set to `description`.
    public static func describedProfile(_ profile: Data, _ description: String) -> Data {
        profile.withUnsafeBytes { raw in
            let opened = cmsOpenProfileFromMem(raw.baseAddress, UInt32(raw.count))
            let mlu = cmsMLUalloc(nil, 1)
            defer { cmsMLUfree(mlu) }
            cmsMLUsetASCII(mlu, "en", "US", description)
            cmsWriteTag(opened, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
            return saved(opened)
        }
    }

    /// A grey profile (gamma 2.2, D50 white) from lcms2.
    public static func greyProfile() -> Data {
        var white = cmsCIExyY(x: 0.3457, y: 0.3585, Y: 1)
        let curve = cmsBuildGamma(nil, 2.2)
        defer { cmsFreeToneCurve(curve) }
        return saved(cmsCreateGrayProfile(&white, curve))
    }

    /// A 24-bit BMP of `bitmap` with a BITMAPV4HEADER whose colour space is `LCS_CALIBRATED_RGB`:
    /// `endpoints` are the red, green and blue CIE XYZ (9 values, written in 2.30 fixed point),
    /// `gamma` the gamma of every channel (16.16).
    public static func calibratedBMP(_ bitmap: Bitmap, endpoints: [Double], gamma: Double) -> Data {
        func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        let rowBytes = (bitmap.width * 3 + 3) / 4 * 4
        let pixelOffset = 14 + 108
        var out: [UInt8] = [0x42, 0x4D] + le32(UInt32(pixelOffset + rowBytes * bitmap.height)) + [0, 0, 0, 0] + le32(UInt32(pixelOffset))
        out += le32(108) + le32(UInt32(bitmap.width)) + le32(UInt32(bitmap.height)) + [1, 0, 24, 0]
        out += le32(0) + le32(UInt32(rowBytes * bitmap.height)) + le32(2835) + le32(2835) + le32(0) + le32(0)
        out += le32(0) + le32(0) + le32(0) + le32(0)  // masks (BI_RGB: unused)
        out += le32(0)  // LCS_CALIBRATED_RGB
        for value in endpoints { out += le32(UInt32((value * Double(1 << 30)).rounded())) }
        for _ in 0..<3 { out += le32(UInt32((gamma * 65536).rounded())) }
        return Data(out + bmpRows(bitmap))
    }

    /// A BMP with a BITMAPV5HEADER (124 bytes) embedding `profile` ("MBED"), 24-bit BI_RGB,
    /// bottom-up, the profile after the pixels.
    public static func embeddedProfileBMP(_ bitmap: Bitmap, profile: Data) -> Data {
        func le32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, Array.init) }
        func le16(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(value).littleEndian, Array.init) }
        let pixels = bmpRows(bitmap)
        let pixelOffset = 14 + 124
        let profileOffsetFromHeader = 124 + pixels.count
        var info: [UInt8] = le32(124) + le32(bitmap.width) + le32(bitmap.height) + le16(1) + le16(24) + le32(0) + le32(pixels.count)
        info += le32(2835) + le32(2835) + le32(0) + le32(0)  // resolution, colours used, important
        info += le32(0) + le32(0) + le32(0) + le32(0)  // masks (unused for BI_RGB)
        info += [0x44, 0x45, 0x42, 0x4D]  // bV5CSType 'MBED' (little-endian 0x4D424544)
        info += [UInt8](repeating: 0, count: 36 + 12)  // endpoints and gammas
        info += le32(4) + le32(profileOffsetFromHeader) + le32(profile.count) + le32(0)  // intent, profile data, size, reserved
        let fileSize = pixelOffset + pixels.count + profile.count
        let file: [UInt8] = [0x42, 0x4D] + le32(fileSize) + le32(0) + le32(pixelOffset)
        return Data(file + info + pixels) + profile
    }

    /// `bitmap`'s rows as a 24-bit BMP stores them: bottom-up, BGR, each padded to 4 bytes.
    private static func bmpRows(_ bitmap: Bitmap) -> [UInt8] {
        let rowBytes = (bitmap.width * 3 + 3) / 4 * 4
        var rows: [UInt8] = []
        for y in (0..<bitmap.height).reversed() {
            var row: [UInt8] = []
            for x in 0..<bitmap.width {
                let pixel = bitmap[x, y]
                row += [pixel.blue, pixel.green, pixel.red]
            }
            rows += row + [UInt8](repeating: 0, count: rowBytes - row.count)
        }
        return rows
    }

    /// Decode options that keep a file's colour profile (``/WebImageCore/ColorProfileHandling/keep``).
    public static var keepProfile: ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.colorProfileHandling = .keep
        return options
    }

    /// The photo in Adobe RGB (``adobeRGB``) carrying that profile: what a keep decode of a
    /// tagged Adobe RGB file gives, and what an encoder should write the profile of.
    public static var keptAdobePhoto: (stored: Bitmap, image: WebImage) {
        let stored = intoSpace(photo, adobeRGB)
        var image = WebImage(bitmap: stored)
        image.colorProfile = ColorProfile(data: adobeRGB)
        return (stored, image)
    }
}
