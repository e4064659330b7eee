import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport
import JXLCoder

/// Files made by the reference encoder (`cjxl`) from pictures the test writes, decoded by the
/// coder and by the reference decoder (`djxl`: to an 8-bit PNG read by the PNG coder for 8-bit
/// sources, to float PFM rounded to 8 bits for 16-bit and float sources): the two must agree
/// within ``tolerance`` on every channel of every pixel. Skipped, saying so, when libjxl-tools
/// is not installed.
@Suite(.onOwnThreads, .enabled(if: ReferenceTools.available, ReferenceTools.skipMessage))
struct ConformanceTests {
    /// The largest per-channel difference allowed between the coder's and djxl's 8-bit output.
    /// Measured: 0 in every case on the development machine (libjxl 0.7.0, AVX2/AVX-512 code);
    /// 1 level leaves room for rounding on libjxl's other SIMD paths.
    static let tolerance = 1

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var alpha: Bool
        var flags: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "lossy d1 RGB", alpha: false, flags: ["-d", "1"]),
        Case(name: "lossy d1 RGBA", alpha: true, flags: ["-d", "1"]),
        Case(name: "lossy d4 effort 3", alpha: false, flags: ["-d", "4", "-e", "3"]),
        Case(name: "lossless RGB", alpha: false, flags: ["-d", "0"]),
        Case(name: "lossless RGBA", alpha: true, flags: ["-d", "0"]),
        Case(name: "progressive lossy", alpha: true, flags: ["-d", "1.5", "-p"]),
    ]

    @Test(arguments: cases)
    func pngSources(_ testCase: Case) async throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Pictures.detailed(width: 300, height: 280, alpha: testCase.alpha)
        let png = try PNGCoder().encode(WebImage(bitmap: source), as: .png)
        let jxl = try await ReferenceTools.cjxl(png, ext: "png", flags: testCase.flags, in: folder)
        try await compareWithReference(jxl, in: folder, expectAlpha: testCase.alpha)
        if testCase.flags.contains("0") {
            #expect(try JXLCoder().decode(jxl).bitmap.bytes == source.bytes, "lossless is exact")
        }
    }

    /// 16-bit samples (a PPM of maxval 65535): the coder asks libjxl for 8 bits.
    @Test func sixteenBitSource() async throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Pictures.detailed(width: 120, height: 90)
        let jxl = try await ReferenceTools.cjxl(Pictures.ppm16(source, low: 0x80), ext: "ppm", flags: ["-d", "0"], in: folder)
        let decoded = try await compareWithFloatReference(jxl, ext: "ppm", in: folder)
        // v * 257 + 1 is closest to v in 8 bits.
        #expect(Pictures.difference(decoded, source).max <= 1)
    }

    /// 32-bit float samples (a PFM).
    @Test func floatSource() async throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Pictures.detailed(width: 96, height: 64)
        let jxl = try await ReferenceTools.cjxl(Pictures.pfm(source), ext: "pfm", flags: ["-d", "0"], in: folder)
        let decoded = try await compareWithFloatReference(jxl, ext: "pfm", in: folder)
        #expect(Pictures.difference(decoded, source).max <= 1)
        // And lossy from float samples.
        let lossy = try await ReferenceTools.cjxl(Pictures.pfm(source), ext: "pfm", flags: ["-d", "1"], in: folder)
        try await compareWithFloatReference(lossy, ext: "pfm", in: folder)
    }

    /// An animation made by cjxl from an APNG (lossless): frames and durations come back, each
    /// frame equal to the source and to djxl's. (cjxl 0.7 does not carry the APNG's play count
    /// over: the loop count is checked with the coder's own animations.)
    @Test func animatedAPNGSource() async throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try (0..<3).map { index in
            ImageFrame(bitmap: try Pictures.detailed(width: 64, height: 48, alpha: true, seed: index * 5), duration: [0.1, 0.25, 0.04][index])
        }
        let apng = try PNGCoder().encode(try WebImage(frames: frames, loopCount: 3), as: .png)
        let jxl = try await ReferenceTools.cjxl(apng, ext: "png", flags: ["-d", "0"], in: folder)
        let image = try JXLCoder().decode(jxl)
        #expect(image.frameCount == 3)
        #expect(image.frameDurations.map { ($0 * 1000).rounded() } == [100, 250, 40])
        let reference = try PNGCoder().decode(await ReferenceTools.djxl(jxl, in: folder))
        #expect(reference.frameCount == 3)
        for index in 0..<3 {
            let ours = try image.frame(at: index).bitmap
            #expect(ours.bytes == frames[index].bitmap.bytes, "frame \(index) is exact")
            #expect(Pictures.difference(ours, try reference.frame(at: index).bitmap).max <= Self.tolerance, "frame \(index)")
        }
    }

    /// SDWebImage's HDR test image (../shared/testdata; lossy 16-bit, Rec.2100 PQ), when present.
    /// The coder gives libjxl's 8-bit sRGB rendering with no tone mapping, which djxl cannot be
    /// told to write (it keeps PQ), so this checks the size and a plausible mean level only.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: hdrPath), "../shared/testdata/sdwebimage/TestHDR.jxl is absent: skipped"))
    func sdWebImageHDR() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.hdrPath))
        let image = try JXLCoder().decode(data)
        #expect(image.pixelSize == PixelSize(width: 600, height: 420))
        #expect(!image.hasAlpha)
        let mean = Double(image.bitmap.bytes.enumerated().filter { $0.offset % 4 != 3 }.reduce(0) { $0 + Int($1.element) }) / Double(600 * 420 * 3)
        #expect(mean > 10 && mean < 245, "mean level \(mean)")
    }

    static var hdrPath: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<6 { url.deleteLastPathComponent() }  // the folder that holds the repository
        return url.appendingPathComponent("shared/testdata/sdwebimage/TestHDR.jxl").path
    }

    /// Decodes `jxl` with the coder and djxl (to PPM or PFM), expects them within the tolerance, and returns the coder's.
    @discardableResult
    private func compareWithFloatReference(_ jxl: Data, ext: String, in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bitmap {
        let ours = try JXLCoder().decode(jxl).bitmap
        let reference = try await ReferenceTools.djxlHighDepth(jxl, ext: ext, in: folder)
        #expect(ours.size == reference.size, sourceLocation: sourceLocation)
        let difference = Pictures.difference(ours, reference)
        #expect(difference.max <= Self.tolerance, "differs from djxl by \(difference.max) (mean \(difference.mean))", sourceLocation: sourceLocation)
        return ours
    }

    /// Decodes `jxl` with the coder and djxl, expects them within the tolerance, and returns the coder's.
    @discardableResult
    private func compareWithReference(_ jxl: Data, in folder: URL, expectAlpha: Bool?, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bitmap {
        let ours = try JXLCoder().decode(jxl)
        let reference = try PNGCoder().decode(await ReferenceTools.djxl(jxl, in: folder))
        #expect(ours.pixelSize == reference.pixelSize, sourceLocation: sourceLocation)
        if let expectAlpha { #expect(ours.hasAlpha == expectAlpha, sourceLocation: sourceLocation) }
        let difference = Pictures.difference(ours.bitmap, reference.bitmap)
        #expect(difference.max <= Self.tolerance, "differs from djxl by \(difference.max) (mean \(difference.mean))", sourceLocation: sourceLocation)
        return ours.bitmap
    }
}
