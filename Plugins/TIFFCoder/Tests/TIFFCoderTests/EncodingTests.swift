import Foundation
import Testing
import TIFFCoder
import WebImageCore
import WebImageTestSupport

/// Encoding: RGB(A) 8-bit, deflate or LZW, pages, kept profiles; checked with libtiff's
/// `tiffinfo` when it is installed.
@Suite(.onOwnThreads) struct EncodingTests {
    @Test(arguments: [(TIFFCoder.Compression.deflate, "AdobeDeflate"), (.lzw, "LZW"), (.none, "None")])
    func compressionIsTheOneAsked(_ compression: TIFFCoder.Compression, _ name: String) async throws {
        let source = WebImage(bitmap: TestImages.gradient(width: 30, height: 20, seed: 5, alpha: true))
        let data = try TIFFCoder(compression: compression).encode(source, as: .tiff)
        #expect(try TIFFCoder().decode(data).bitmap == source.bitmap)
        guard ChildProcess.path(of: "tiffinfo") != nil else {
            print("EncodingTests: tiffinfo (libtiff-tools) is not installed: the tags are not checked")
            return
        }
        let folder = try TemporaryFolder()
        try data.writeWithoutSync(to: folder.url.appendingPathComponent("out.tif"))
        let info = String(decoding: try await ChildProcess.output(of: "tiffinfo", ["out.tif"], in: folder.url), as: UTF8.self)
        #expect(info.contains("Compression Scheme: \(name)"), "\(info)")
        #expect(info.contains("Extra Samples: 1<unassoc-alpha>"), "\(info)")
    }

    @Test func framesBecomePages() throws {
        let a = TestImages.gradient(width: 12, height: 8, seed: 1, alpha: false)
        let b = TestImages.gradient(width: 12, height: 8, seed: 2, alpha: false)
        let image = try WebImage(frames: [ImageFrame(bitmap: a, duration: 0.1), ImageFrame(bitmap: b, duration: 0.1)])
        let data = try TIFFCoder().encode(image, as: .tiff)
        let decoded = try TIFFCoder().decode(data)
        #expect(decoded.frameCount == 2)
        #expect(try decoded.frame(at: 1).bitmap == b)
        #expect(try TIFFCoder().decode(try TIFFCoder().encode(image, as: .tiff, options: ImageEncodeOptions(firstFrameOnly: true))).frameCount == 1)
    }

    @Test func aKeptProfileIsEmbedded() throws {
        var image = WebImage(bitmap: TestImages.gradient(width: 8, height: 8, seed: 7, alpha: false))
        let profile = ColorProfile(data: Data((0..<200).map { UInt8($0) }))
        image.colorProfile = profile
        let data = try TIFFCoder().encode(image, as: .tiff)
        #expect(data.range(of: profile.data) != nil)
    }

    @Test func onlyTIFFIsEncoded() {
        #expect(!TIFFCoder().canEncode(to: .png))
        #expect(throws: WebImageError.self) { try TIFFCoder().encode(WebImage(bitmap: TestImages.gradient()), as: .png) }
    }
}
