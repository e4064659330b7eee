import AVIFCoder
import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// AVIF colour (issue 31): a Display P3 `nclx` and an ICC profile written by avifenc (lossless)
/// decode to the photo's sRGB colours.
@Suite(.onOwnThreads, .enabled(if: ReferenceTools.available, "avifenc or avifdec is not on the PATH (apt-get install libavif-bin): skipped"))
struct ColorProfileTests {
    /// avifenc's lossless encode of `stored` with `arguments` (`--cicp` or `--icc`).
    static func encode(_ stored: Bitmap, _ arguments: [String], in folder: URL) async throws -> Data {
        let png = folder.appendingPathComponent("source-\(UUID().uuidString).png")
        let avif = folder.appendingPathComponent("image-\(UUID().uuidString).avif")
        try ReferenceTools.writePNG(stored, to: png)
        try await ReferenceTools.run("avifenc", ["-l"] + arguments + [png.path, avif.path])
        return try Data(contentsOf: avif)
    }

    @Test func displayP3ByCodePointsIsConverted() async throws {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let p3 = try #require(ColorConversion.profile(primaries: 12, transfer: 13))
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, p3)
        let data = try await Self.encode(stored, ["--cicp", "12/13/0"], in: folder)
        let decoded = try AVIFCoder().decode(data)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo) < 1)
        #expect(ColorFixtures.meanDeltaE(stored, ColorFixtures.photo) > 1.5, "P3 numbers read as sRGB are off")
        // Kept: the numbers as they are, with a profile made for the code points.
        let kept = try AVIFCoder().decode(data, options: ColorFixtures.keepProfile)
        #expect(kept.colorProfile?.description == "Display P3" && kept.bitmap == stored)
        var reconverted = kept.bitmap
        #expect(ColorConversion.convert(&reconverted, profile: try #require(kept.colorProfile?.data)) == .converted)
        #expect(reconverted == decoded.bitmap)
    }

    @Test func anICCProfileIsConverted() async throws {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icc = folder.appendingPathComponent("adobe.icc")
        try ColorFixtures.adobeRGB.writeWithoutSync(to: icc)
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)
        let data = try await Self.encode(stored, ["--icc", icc.path], in: folder)
        let decoded = try AVIFCoder().decode(data)
        #expect(decoded.metadata.contains(.colorConverted))
        #expect(ColorFixtures.meanDeltaE(decoded.bitmap, ColorFixtures.photo) < 1)
    }

    @Test func sRGBCodePointsTouchNothing() async throws {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try await Self.encode(ColorFixtures.photo, ["--cicp", "1/13/0"], in: folder)
        let decoded = try AVIFCoder().decode(data)
        #expect(!decoded.metadata.contains(.colorConverted))
        #expect(decoded.bitmap == ColorFixtures.photo)
    }
}

/// ``ColorProfileHandling/keep`` through the AVIF encoder (issue 31).
@Suite(.onOwnThreads) struct AVIFColorProfileKeepingTests {
    @Test func aKeptProfileRoundTripsThroughTheEncoder() throws {
        let keep = ColorFixtures.keepProfile
        let (stored, image) = ColorFixtures.keptAdobePhoto
        let avif = try AVIFCoder(speed: 9).encode(image, as: .avif, options: ImageEncodeOptions(compressionQuality: 1))
        let kept = try AVIFCoder().decode(avif, options: keep)
        #expect(kept.colorProfile?.data == ColorFixtures.adobeRGB)
        #expect(kept.bitmap == stored, "lossless: the numbers come back as they were")
        let converted = try AVIFCoder().decode(avif)
        #expect(converted.colorProfile == nil && ColorFixtures.meanDeltaE(converted.bitmap, ColorFixtures.photo) < 1)
    }
}
