import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// Issue 34: the JPEG encoder makes Huffman tables for each image (libjpeg's `optimize_coding`,
/// as Pillow's `optimize=True`, which thumbor uses), and writes progressive files when the coder
/// or the request's context asks.
@Suite(.onOwnThreads) struct JPEGHuffmanOptimizationTests {
    /// A photo-like picture: gradients, soft blobs and a little deterministic noise.
    static func photo(width: Int, height: Int) -> Bitmap {
        var state: UInt32 = 34
        return Pixels.make(width: width, height: height, hasAlpha: false) { x, y in
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = Int(state >> 28) - 8
            let u = Double(x) / Double(width), v = Double(y) / Double(height)
            let blob = exp(-(pow(u - 0.3, 2) + pow(v - 0.6, 2)) * 18) * 90
            let wave = sin(u * 19 + v * 7) * 25
            func clamp(_ value: Double) -> UInt8 { UInt8(min(max(value + Double(noise), 0), 255)) }
            return RGBAColor(red: clamp(60 + 120 * u + blob + wave), green: clamp(80 + 90 * v + wave), blue: clamp(150 - 70 * v + blob / 2))
        }
    }

    /// The markers of a JPEG up to its first scan (SOS included).
    static func markers(_ data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        var markers: [UInt8] = []
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return markers
    }

    @Test func optimisedTablesAreTheDefault() {
        #expect(JPEGCoder().optimizesHuffmanTables)
        #expect(!JPEGCoder(optimizesHuffmanTables: false).optimizesHuffmanTables)
    }

    /// Optimised tables change the entropy coding only: fewer bytes, the very same pixels.
    @Test(arguments: [(96, 64, 80), (300, 200, 80), (640, 480, 50), (640, 480, 95)])
    func optimisedTablesGiveFewerBytesAndTheSamePixels(_ width: Int, _ height: Int, _ quality: Int) throws {
        let image = WebImage(bitmap: Self.photo(width: width, height: height))
        let options = ImageEncodeOptions(compressionQuality: Double(quality) / 100)
        let optimised = try JPEGCoder().encode(image, as: .jpeg, options: options)
        let standard = try JPEGCoder(optimizesHuffmanTables: false).encode(image, as: .jpeg, options: options)
        #expect(optimised.count < standard.count, "\(width)x\(height) q\(quality): \(optimised.count) optimised, \(standard.count) standard")
        let a = try JPEGCoder().decode(optimised, options: ImageDecodeOptions())
        let b = try JPEGCoder().decode(standard, options: ImageDecodeOptions())
        #expect(a.bitmap == b.bitmap)
        #expect(Self.markers(optimised).contains(0xC0), "baseline SOF0")
    }

    /// At quality 1 the standard tables' cost dominates a small file: the optimised one is far
    /// smaller (what `max_bytes` needs to reach thumbor's limits).
    @Test func optimisedTablesMatterMostForSmallFiles() throws {
        let image = WebImage(bitmap: Self.photo(width: 96, height: 64))
        let options = ImageEncodeOptions(compressionQuality: 0.01)
        let optimised = try JPEGCoder().encode(image, as: .jpeg, options: options)
        let standard = try JPEGCoder(optimizesHuffmanTables: false).encode(image, as: .jpeg, options: options)
        #expect(Double(optimised.count) < 0.8 * Double(standard.count), "\(optimised.count) optimised, \(standard.count) standard")
    }

    @Test func theContextKeyPicksProgressiveOrBaselineOverTheCoder() throws {
        let image = WebImage(bitmap: Self.photo(width: 120, height: 80))
        var progressive = ImageEncodeOptions(compressionQuality: 0.8)
        progressive.context.jpegProgressive = true
        var baseline = ImageEncodeOptions(compressionQuality: 0.8)
        baseline.context.jpegProgressive = false
        #expect(Self.markers(try JPEGCoder().encode(image, as: .jpeg, options: progressive)).contains(0xC2))
        #expect(Self.markers(try JPEGCoder(progressiveEncoding: true).encode(image, as: .jpeg, options: baseline)).contains(0xC0))
        #expect(Self.markers(try JPEGCoder(progressiveEncoding: true).encode(image, as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.8))).contains(0xC2))
        #expect(Self.markers(try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.8))).contains(0xC0))
        #expect(ImageEncodeOptions().context.jpegProgressive == nil)
    }

    /// Against Pillow's `optimize=True` (thumbor's encoder) on the same pixels and quality: no
    /// more than 1% larger, baseline and progressive. Skipped without a Python with Pillow.
    @Test(arguments: [false, true])
    func noLargerThanPillowsOptimisedOutput(_ progressive: Bool) async throws {
        guard let python = await Pillow.python.value else {
            print(Pillow.skipMessage("the comparison with Pillow's optimised JPEG"))
            return
        }
        let folder = try TemporaryFolder(prefix: "jpeg-optimise")
        let bitmap = Self.photo(width: 320, height: 240)
        try PNGCoder().encode(WebImage(bitmap: bitmap), as: .png).writeWithoutSync(to: URL(fileURLWithPath: folder.path("in.png")))
        var options = ImageEncodeOptions(compressionQuality: 0.8)
        options.context.jpegProgressive = progressive
        let ours = try JPEGCoder().encode(WebImage(bitmap: bitmap), as: .jpeg, options: options)
        let script = """
            import sys
            from PIL import Image
            extra = {"progressive": True} if sys.argv[3] == "1" else {}
            Image.open(sys.argv[1]).convert("RGB").save(sys.argv[2], quality=80, optimize=True, **extra)
            """
        let outcome = try await ChildProcess.run(python, ["-c", script, folder.path("in.png"), folder.path("out.jpg"), progressive ? "1" : "0"])
        try #require(outcome.succeeded, "Pillow: \(outcome.errorText)")
        let pillow = try folder.data("out.jpg")
        #expect(Double(ours.count) <= Double(pillow.count) * 1.01, "ours \(ours.count) bytes, Pillow's \(pillow.count)")
    }
}
