import AVIFCoder
import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Files made by libavif's reference encoder (`avifenc`) decode to within a small tolerance of
/// its reference decoder's (`avifdec -d 8`) output. The source PNGs are written by the tests,
/// in a temporary folder. Skipped, saying so, when the tools are absent.
///
/// Tolerance: both sides run libavif's YUV to RGB conversion; the coder converts 10- and 12-bit
/// frames to 8 bits in one step (libavif's RGB depth 8), avifdec through its own PNG writer;
/// 8-bit files agree exactly, 10-bit 4:2:0 ones differ by up to 2 levels (measured), the
/// tolerance.
@Suite(.onOwnThreads, .enabled(if: ReferenceTools.available, "avifenc or avifdec is not on the PATH (apt-get install libavif-bin): skipped"))
struct ConformanceTests {
    static let tolerance = 2
    static let coder = AVIFCoder()

    struct Variant: Sendable, CustomTestStringConvertible {
        var depth: Int
        var yuv: String
        var alpha: Bool
        var lossless = false
        var testDescription: String { "\(depth)-bit \(yuv)\(alpha ? " alpha" : "")\(lossless ? " lossless" : "")" }
    }

    static let variants: [Variant] = [
        Variant(depth: 8, yuv: "444", alpha: false), Variant(depth: 8, yuv: "420", alpha: true),
        Variant(depth: 8, yuv: "422", alpha: false), Variant(depth: 8, yuv: "400", alpha: false),
        Variant(depth: 10, yuv: "444", alpha: true), Variant(depth: 10, yuv: "420", alpha: false),
        Variant(depth: 12, yuv: "444", alpha: true), Variant(depth: 12, yuv: "420", alpha: true),
        Variant(depth: 8, yuv: "444", alpha: true, lossless: true),
    ]

    @Test(arguments: variants)
    func stillMatchesAvifdec(_ variant: Variant) async throws {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Pixels.picture(width: 67, height: 45, alpha: variant.alpha)
        let png = folder.appendingPathComponent("source.png"), avif = folder.appendingPathComponent("image.avif")
        try ReferenceTools.writePNG(source, to: png)
        var arguments = ["-s", "10", "-d", "\(variant.depth)", "-y", variant.yuv]
        if variant.lossless { arguments = ["-s", "10", "-l"] }
        try await ReferenceTools.run("avifenc", arguments + [png.path, avif.path])

        let data = try Data(contentsOf: avif)
        #expect(Self.coder.canDecode(data))
        let image = try Self.coder.decode(data)
        let reference = try await ReferenceTools.referenceDecode(avif, in: folder)
        #expect(image.pixelSize == PixelSize(width: 67, height: 45))
        #expect(image.format == .avif)
        #expect(image.hasAlpha == variant.alpha)
        let difference = Pixels.maxDifference(image.bitmap, reference)
        #expect(difference <= Self.tolerance, "differs from avifdec by \(difference)")
        if variant.lossless {
            #expect(Pixels.maxDifference(image.bitmap, source) == 0, "lossless file not exact")
        } else if variant.yuv != "400" {
            // And close to what was encoded (the AV1 and chroma losses only).
            #expect(Pixels.maxDifference(image.bitmap, source, includeAlpha: false) <= 40)
        }
    }

    /// `irot` and `imir` (which avifdec leaves unapplied) are applied to the pixels: the result
    /// is avifdec's output turned and mirrored by the definitions, and the sides swap for odd
    /// turns.
    @Test(arguments: [(1, nil), (2, nil), (3, nil), (0, 0), (0, 1), (1, 0), (3, 1)] as [(Int, Int?)])
    func rotationAndMirrorAreApplied(_ quarterTurns: Int, _ mirrorMode: Int?) async throws {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Pixels.picture(width: 40, height: 24, alpha: true)
        let png = folder.appendingPathComponent("source.png"), avif = folder.appendingPathComponent("image.avif")
        try ReferenceTools.writePNG(source, to: png)
        var arguments = ["-s", "10", "--irot", "\(quarterTurns)"]
        if let mirrorMode { arguments += ["--imir", "\(mirrorMode)"] }
        try await ReferenceTools.run("avifenc", arguments + [png.path, avif.path])

        let image = try Self.coder.decode(Data(contentsOf: avif))
        let expected = Pixels.oriented(try await ReferenceTools.referenceDecode(avif, in: folder), quarterTurns: quarterTurns, mirrorMode: mirrorMode)
        #expect(image.pixelSize == expected.size)
        #expect(Pixels.maxDifference(image.bitmap, expected) <= Self.tolerance)

        // Thumbnails of a turned image keep the displayed aspect ratio.
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 12, height: 12)
        let thumbnail = try Self.coder.decode(Data(contentsOf: avif), options: options)
        #expect(thumbnail.pixelSize == (quarterTurns % 2 == 1 ? PixelSize(width: 7, height: 12) : PixelSize(width: 12, height: 7)))
    }

    /// An image sequence: frame count, durations from the timescale, loop forever, every frame
    /// as avifdec decodes it (in order, and out of order through the provider).
    @Test func sequenceMatchesAvifdec() async throws {
        let folder = try ReferenceTools.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var pngs: [String] = []
        for index in 0..<4 {
            let png = folder.appendingPathComponent("frame\(index).png")
            try ReferenceTools.writePNG(Pixels.picture(width: 32, height: 20, alpha: true, seed: index * 12), to: png)
            pngs.append(png.path)
        }
        let avif = folder.appendingPathComponent("sequence.avif")
        try await ReferenceTools.run("avifenc", ["-s", "10", "--timescale", "1000", "--duration", "100", pngs[0], pngs[1], "--duration", "250", pngs[2], pngs[3], avif.path])
        let data = try Data(contentsOf: avif)
        #expect(ImageFormat.detectDetails(data) == ImageFormatDetection(format: .avif, isAnimated: true))

        let image = try Self.coder.decode(data)
        #expect(image.frameCount == 4)
        #expect(image.isLazilyAnimated)
        #expect(image.loopCount == 0)
        #expect(image.frameDurations.map { ($0 * 1000).rounded() } == [100, 100, 250, 250])
        var references: [Bitmap] = []
        for index in 0..<4 { references.append(try await ReferenceTools.referenceDecode(avif, index: index, in: folder)) }
        for index in 0..<4 {
            #expect(Pixels.maxDifference(try image.frame(at: index).bitmap, references[index]) <= Self.tolerance, "frame \(index)")
        }
        let provider = try Self.coder.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
        for index in [3, 0, 2, 2, 1] {
            #expect(Pixels.maxDifference(try provider.frame(at: index), references[index]) <= Self.tolerance, "frame \(index) out of order")
        }
        #expect(throws: WebImageError.self) { try provider.frame(at: 4) }

        var first = ImageDecodeOptions()
        first.firstFrameOnly = true
        let still = try Self.coder.decode(data, options: first)
        #expect(still.frameCount == 1)
        #expect(Pixels.maxDifference(still.bitmap, references[0]) <= Self.tolerance)

        var preload = ImageDecodeOptions()
        preload.preloadAllFrames = true
        preload.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let thumbnails = try Self.coder.decode(data, options: preload)
        #expect(!thumbnails.isLazilyAnimated)
        #expect(thumbnails.frameCount == 4)
        #expect(thumbnails.pixelSize == PixelSize(width: 16, height: 10))
        #expect(thumbnails.metadata.contains(.thumbnail))
    }
}
