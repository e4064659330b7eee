import Foundation
import HEIFCoder
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Files made by libheif's reference encoder (`heif-enc`) from a PNG the test writes, decoded
/// by the coder and by the reference decoder (`heif-convert`, to PNG): the two must agree
/// within a small tolerance. Both sit on the same libheif, so most pixels are identical; the
/// tolerance covers rounding where the two take different routes (heif-convert writes the
/// 10-bit fixture as a 16-bit PNG, which PNGCoder reduces to 8 bits; the coder asks libheif
/// for RGBA8). Measured with libheif 1.15.1: 0 on every heif-enc file here, at most 1 level
/// on SDWebImage's fixtures.
@Suite(.onOwnThreads, .enabled(if: ReferenceTools.available, "heif-enc / heif-convert are not installed (apt-get install libheif-examples): skipped"))
struct ConformanceTests {
    static let tolerance = 1

    /// Writes `bitmap` as PNG, runs `heif-enc` with `arguments` on it, decodes the result with
    /// the coder and with `heif-convert`; returns both decodes and the encoded bytes.
    static func roundTrip(_ bitmap: Bitmap, _ arguments: [String], output: String = "image.heic") async throws -> (ours: WebImage, reference: WebImage, data: Data) {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try PNGCoder().encode(WebImage(bitmap: bitmap), as: .png).writeWithoutSync(to: folder.appendingPathComponent("source.png"))
        try await ReferenceTools.run("heif-enc", arguments + ["-o", output, "source.png"], in: folder)
        let data = try Data(contentsOf: folder.appendingPathComponent(output))
        try await ReferenceTools.run("heif-convert", [output, "reference.png"], in: folder)
        let reference = try PNGCoder().decode(Data(contentsOf: folder.appendingPathComponent("reference.png")))
        return (try HEIFCoder().decode(data), reference, data)
    }

    @Test func opaqueHEIC() async throws {
        let (ours, reference, data) = try await Self.roundTrip(Pixels.smooth(width: 160, height: 120), ["-q", "80"])
        #expect(ImageFormat.detect(data) == .heic)
        #expect(ours.format == .heic)
        #expect(ours.pixelSize == PixelSize(width: 160, height: 120))
        #expect(!ours.hasAlpha)
        let (worst, mean) = Pixels.compare(ours.bitmap, reference.bitmap, includeAlpha: false)
        #expect(worst <= Self.tolerance, "max difference \(worst), mean \(mean)")
        #expect((0..<120).allSatisfy { ours.bitmap[$0, $0].alpha == 255 }, "opaque images decode with alpha 255")
    }

    /// Odd sides: the HEVC picture is coded padded to even sides and cropped back.
    @Test func oddSizedHEIC() async throws {
        let (ours, reference, _) = try await Self.roundTrip(Pixels.smooth(width: 101, height: 57), ["-q", "90"])
        #expect(ours.pixelSize == PixelSize(width: 101, height: 57))
        #expect(reference.pixelSize == ours.pixelSize)
        let (worst, mean) = Pixels.compare(ours.bitmap, reference.bitmap, includeAlpha: false)
        #expect(worst <= Self.tolerance, "max difference \(worst), mean \(mean)")
    }

    @Test func heicWithAlpha() async throws {
        let source = Pixels.make(width: 96, height: 64) { x, y in
            RGBAColor(red: UInt8(x * 2), green: UInt8(y * 3), blue: 128, alpha: UInt8(clamping: x < 48 ? 255 : y * 4))
        }
        let (ours, reference, _) = try await Self.roundTrip(source, ["-q", "90"])
        #expect(ours.hasAlpha)
        #expect(ours.pixelSize == source.size)
        // Compare where the reference is not fully transparent (the color there is arbitrary).
        var worst = 0
        for y in 0..<64 {
            for x in 0..<96 where reference.bitmap[x, y].alpha > 0 {
                worst = max(worst, Pixels.difference(ours.bitmap[x, y], reference.bitmap[x, y]))
            }
        }
        #expect(worst <= Self.tolerance, "max difference \(worst)")
        #expect(ours.bitmap[10, 10].alpha == 255)
        #expect(ours.bitmap[90, 2].alpha < 40, "alpha \(ours.bitmap[90, 2].alpha)")
    }

    /// AVIF written by heif-enc (libaom) and read by the coder through libheif's AV1 decoder.
    @Test(.enabled("heif-enc has no AVIF encoder: skipped") { await ReferenceTools.encodesAVIF() })
    func avifInHEIF() async throws {
        let (ours, reference, data) = try await Self.roundTrip(Pixels.smooth(width: 64, height: 48), ["-q", "80", "-A"], output: "image.avif")
        #expect(ImageFormat.detect(data) == .avif)
        #expect(HEIFCoder().canDecode(data))
        #expect(!HEIFCoder(decodesAVIF: false).canDecode(data))
        #expect(throws: WebImageError.self) { try HEIFCoder(decodesAVIF: false).decode(data) }
        #expect(ours.format == .avif)
        let (worst, mean) = Pixels.compare(ours.bitmap, reference.bitmap, includeAlpha: false)
        #expect(worst <= Self.tolerance, "max difference \(worst), mean \(mean)")
    }

    /// heif-enc's `-t` thumbnail is found and used for a small request, and shows the full
    /// image scaled down (libheif 1.15 makes thumbnails by nearest-neighbour scaling and codes
    /// them lossily again, so they differ from a Lanczos-3 reduction by some levels on average:
    /// measured 9 here).
    @Test func heifEncThumbnail() async throws {
        let source = Pixels.smooth(width: 640, height: 480)
        let (ours, _, data) = try await Self.roundTrip(source, ["-q", "80", "-t", "128"])
        #expect(try HEIFFileMaker.thumbnailCount(data) == 1)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        let thumbnail = try HEIFCoder().decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 100, height: 75))
        #expect(thumbnail.metadata.contains(.thumbnail))
        let scaled = try ours.bitmap.resampled(to: thumbnail.pixelSize, filter: .lanczos3)
        let (_, mean) = Pixels.compare(thumbnail.bitmap, scaled, includeAlpha: false)
        #expect(mean < 16, "mean difference \(mean)")
    }
}
