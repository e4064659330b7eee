import Foundation
import HEIFCoder
import SwiftWebImage
import Testing
import WebImageTestSupport

/// HEIF colour (issue 31): heif-enc's lossless HEIC with Display P3 code points (`nclx`), and
/// with the ICC profile of a tagged PNG, decode to the photo's sRGB colours.
@Suite(.onOwnThreads, .enabled(if: ReferenceTools.available, "heif-enc/heif-convert are not installed (apt-get install libheif-examples): skipped"))
struct ColorProfileTests {
    static func encode(_ png: Data, _ arguments: [String]) async throws -> Data {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try png.writeWithoutSync(to: folder.appendingPathComponent("source.png"))
        try await ReferenceTools.run("heif-enc", ["-L", "--matrix_coefficients=0"] + arguments + ["-o", "image.heic", "source.png"], in: folder)
        return try Data(contentsOf: folder.appendingPathComponent("image.heic"))
    }

    /// Display P3 code points (`nclx`), in an AVIF written by avifenc and read through libheif
    /// (heif-enc 1.15 writes no `colr` box for the code points it is given).
    @Test(.enabled(if: ChildProcess.path(of: "avifenc") != nil, "avifenc is not installed (apt-get install libavif-bin): skipped"))
    func displayP3ByCodePointsIsConverted() async throws {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let p3 = try #require(ColorConversion.profile(primaries: 12, transfer: 13))
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, p3)
        try PNGCoder().encode(WebImage(bitmap: stored), as: .png).writeWithoutSync(to: folder.appendingPathComponent("source.png"))
        try await ChildProcess.output(of: "avifenc", ["-l", "--cicp", "12/13/0", "source.png", "image.avif"], in: folder)
        let data = try Data(contentsOf: folder.appendingPathComponent("image.avif"))
        // Debian 12's libheif decodes AV1 (libaom, dav1d).
        let decoded = try HEIFCoder().decode(data)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo) < 1)
    }

    @Test func theICCProfileOfTheSourceIsConverted() async throws {
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.proPhoto)
        let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), ColorFixtures.proPhoto)
        let data = try await Self.encode(png, [])
        let decoded = try HEIFCoder().decode(data)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo) < 1)
    }
}

/// ``ColorProfileHandling/keep`` through the HEIC encoder (issue 31).
@Suite(.onOwnThreads, .enabled(if: HEIFCoder().canEncode(to: .heic), "libheif has no HEVC encoder: skipped"))
struct HEIFColorProfileKeepingTests {
    @Test func aKeptProfileRoundTripsThroughTheEncoder() throws {
        let keep = ColorFixtures.keepProfile
        let image = ColorFixtures.keptAdobePhoto.image
        let heic = try HEIFCoder().encode(image, as: .heic, options: ImageEncodeOptions(compressionQuality: 0.95))
        let kept = try HEIFCoder().decode(heic, options: keep)
        #expect(kept.colorProfile?.data == ColorFixtures.adobeRGB && !kept.metadata.contains(.colorConverted))
        let converted = try HEIFCoder().decode(heic)
        #expect(converted.colorProfile == nil && converted.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(converted.bitmap, ColorFixtures.photo) < 3)
    }
}
