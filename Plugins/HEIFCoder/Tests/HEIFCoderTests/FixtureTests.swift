import Foundation
import HEIFCoder
import SwiftWebImage
import Testing
import WebImageTestSupport

/// SDWebImage's HEIF test images from ../shared/testdata/sdwebimage (an Apple grid HEIC, a
/// `mif1` file with a stored thumbnail, a 10-bit `heix` HDR photo, an `msf1` image sequence),
/// each decoded by the coder and compared with `heif-convert`'s output. Skipped, saying so,
/// when the folder or the tools are absent.
@Suite(.onOwnThreads, .enabled(if: TestData.hasHEIFFixtures, "../shared/testdata/sdwebimage HEIF files or heif-convert absent: skipped"))
struct FixtureTests {
    /// heif-convert's decode of fixture `name`: as PNG (exact), or as JPEG at quality 100 for
    /// files with an ICC profile that heif-convert's libpng refuses to write.
    static func reference(_ name: String, jpeg: Bool = false) async throws -> Bitmap {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = jpeg ? "reference.jpg" : "reference.png"
        try await ReferenceTools.run("heif-convert", (jpeg ? ["-q", "100"] : []) + [TestData.sdWebImage(name).path, output], in: folder)
        let data = try Data(contentsOf: folder.appendingPathComponent(output))
        return try (jpeg ? JPEGCoder().decode(data) : PNGCoder().decode(data)).bitmap
    }

    /// Decodes fixture `name` and compares it with heif-convert's PNG (the conformance
    /// tolerance on every pixel).
    static func expectConformant(_ name: String, size: PixelSize, sourceLocation: SourceLocation = #_sourceLocation) async throws -> WebImage {
        let ours = try HEIFCoder().decode(Data(contentsOf: TestData.sdWebImage(name)))
        #expect(ours.pixelSize == size, sourceLocation: sourceLocation)
        let (worst, mean) = Pixels.compare(ours.bitmap, try await reference(name), includeAlpha: false)
        #expect(worst <= ConformanceTests.tolerance, "\(name): max difference \(worst), mean \(mean)", sourceLocation: sourceLocation)
        return ours
    }

    /// An iPhone-style HEIC: a grid of HEVC tiles with an ICC profile. heif-convert cannot
    /// write it as PNG (libpng rejects the profile), so the reference is its JPEG at quality
    /// 100: the JPEG's own loss allows a larger worst case, the mean stays small (measured
    /// against pillow-heif: worst 23, mean 0.3).
    @Test func appleGridHEIC() async throws {
        let image = try HEIFCoder().decode(Data(contentsOf: TestData.sdWebImage("TestImage.heic")))
        #expect(image.pixelSize == PixelSize(width: 1440, height: 960))
        #expect(image.format == .heic)
        #expect(!image.hasAlpha)
        let (worst, mean) = Pixels.compare(image.bitmap, try await Self.reference("TestImage.heic", jpeg: true), includeAlpha: false)
        #expect(worst <= 32 && mean < 1, "max difference \(worst), mean \(mean)")
    }

    /// A `mif1` file with a 240x160 stored thumbnail, used for requests up to its size.
    @Test func mif1WithStoredThumbnail() async throws {
        let full = try await Self.expectConformant("TestImage.heif", size: PixelSize(width: 1440, height: 960))
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 240, height: 240)
        let data = try Data(contentsOf: TestData.sdWebImage("TestImage.heif"))
        let stored = try HEIFCoder().decode(data, options: options)
        let resampled = try HEIFCoder(usesEmbeddedThumbnails: false).decode(data, options: options)
        #expect(stored.pixelSize == PixelSize(width: 240, height: 160))
        #expect(resampled.pixelSize == stored.pixelSize)
        #expect(stored.metadata.contains(.thumbnail))
        // The stored thumbnail shows the same picture as the primary image scaled down; it was
        // made with a cruder filter (pillow-heif measures a mean difference of 9 from a
        // Lanczos reduction too), so compare at a low resolution where that does not show.
        let small = PixelSize(width: 30, height: 20)
        let thumbnail = try stored.bitmap.resampled(to: small, filter: .lanczos3)
        let primary = try full.bitmap.resampled(to: small, filter: .lanczos3)
        #expect(Pixels.compare(thumbnail, primary, includeAlpha: false).mean < 6)
        let fromPrimary = try resampled.bitmap.resampled(to: small, filter: .lanczos3)
        #expect(Pixels.compare(fromPrimary, primary, includeAlpha: false).mean < 2)
    }

    /// 10-bit HDR (`heix`): reduced to 8 bits as heif-convert does.
    @Test func tenBitHDR() async throws {
        _ = try await Self.expectConformant("TestHDR.heic", size: PixelSize(width: 600, height: 400))
    }

    /// An image sequence (`msf1`) that also stores a still primary image: libheif 1.15 has no
    /// sequence API, so that still is decoded, one frame (heif-convert refuses the file, so
    /// there is no reference: the picture must not be flat).
    @Test func imageSequenceGivesItsPrimaryImage() throws {
        let data = try Data(contentsOf: TestData.sdWebImage("TestImageAnimated.heics"))
        #expect(HEIFCoder().canDecode(data))
        let image = try HEIFCoder().decode(data)
        #expect(image.pixelSize == PixelSize(width: 256, height: 144))
        #expect(image.frameCount == 1)
        #expect(!image.isAnimated)
        let colors = Set((0..<144).map { image.bitmap[$0, $0] })
        #expect(colors.count > 20, "\(colors.count) colors on the diagonal")
    }
}
