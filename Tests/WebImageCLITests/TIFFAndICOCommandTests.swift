import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit

/// The TIFFCoder and ICOCoder plug-ins in `webimage`: `info` reads pages and icons, `convert`
/// writes both, and the TIFF bomb (100000 x 100000 in a 16-byte strip) is refused from its
/// header: a clear error, nothing from libtiff on stderr, and a peak RSS at the baseline.
@Suite(.onOwnThreads) struct TIFFAndICOCommandTests {
    let workspace = Workspace()

    init() throws {
        WebImageCLI.registerLaunchComponents()
        try workspace.write(try Fixtures.alphaPNG(), to: "alpha.png")
        let a = TestImages.gradient(width: 40, height: 30, seed: 1, alpha: false)
        let b = TestImages.gradient(width: 40, height: 30, seed: 2, alpha: false)
        let pages = try WebImage(frames: [ImageFrame(bitmap: a), ImageFrame(bitmap: b)])
        try workspace.write(try CodersManager.shared.encode(pages, as: .tiff, options: ImageEncodeOptions()), to: "pages.tif")
        try workspace.write(Self.bomb, to: "bomb.tif")
    }

    /// 100000 x 100000 8-bit RGB, deflate, one strip of 16 bytes (little-endian classic TIFF).
    static var bomb: Data {
        stripTIFF(side: 100_000, strip: [UInt8](repeating: 0x78, count: 16))
    }

    /// A `side` x `side` 8-bit RGB TIFF of one deflate strip holding `strip`.
    static func stripTIFF(side: Int, strip: [UInt8]) -> Data {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        let tags: [(Int, Int, Int)] = [(256, 4, side), (257, 4, side), (258, 3, 8), (259, 3, 8), (262, 3, 2),
                                       (273, 4, 8 + 2 + 11 * 12 + 4), (277, 3, 3), (278, 4, side), (279, 4, strip.count), (284, 3, 1), (317, 3, 1)]
        var out: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + le16(tags.count)
        for (tag, type, value) in tags {
            out += le16(tag) + le16(type) + le32(1) + (type == 3 ? le16(value) + [0, 0] : le32(value))
        }
        return Data(out + le32(0) + strip)
    }

    func run(_ arguments: [String]) async throws -> CLIResult {
        try await CLIRunner.run(arguments, home: workspace.home, in: workspace.url)
    }

    @Test func bothPluginsAreRegistered() {
        #expect(PluginCoders.names.contains("TIFFCoder"))
        #expect(PluginCoders.names.contains("ICOCoder"))
    }

    @Test func infoReadsTheTIFFPages() async throws {
        let result = try await run(["info", "--json", "pages.tif"])
        #expect(result.status == 0, "\(result.stderr)")
        // A TIFF's pages are its frames: no separate page count.
        #expect(result.lines.first?.contains(#""format":"tiff","width":40,"height":30,"frames":2,"pages":null,"#) == true, "\(result.lines)")
    }

    @Test func convertWritesTIFFAndICOAndReadsThemBack() async throws {
        let tiff = try await run(["convert", "alpha.png", "out.tiff"])
        #expect(tiff.status == 0, "\(tiff.stderr)")
        let ico = try await run(["convert", "out.tiff", "out.ico"])
        #expect(ico.status == 0, "\(ico.stderr)")
        let back = try await run(["convert", "out.ico", "back.png"])
        #expect(back.status == 0, "\(back.stderr)")
        let original = try CodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path("alpha.png"))))
        let image = try CodersManager.shared.decode(try Data(contentsOf: URL(fileURLWithPath: workspace.path("back.png"))))
        #expect(image.pixelSize == original.pixelSize)
        #expect(ImageCoderContract.maxChannelDifference(image.bitmap, original.bitmap) == 0)
        let info = try await run(["info", "out.ico"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.lines.first?.contains("ico 40x30") == true, "\(info.lines)")
    }

    /// A thumbnail of a 3000 x 3000 TIFF of one deflate strip (all zero bytes: black, 27 MB of
    /// samples in 26 KB) is made from scanlines as they are inflated: its peak RSS over the
    /// executable's baseline is under a tenth of the full decode's.
    @Test func aStripTIFFThumbnailPeaksUnderATenthOfAFullDecode() async throws {
        guard PeakMemoryRunner.isAvailable else {
            print("TIFFAndICOCommandTests: peak RSS not measured, python3 is not on the PATH")
            return
        }
        let side = 3000
        let input = try workspace.write(Self.stripTIFF(side: side, strip: AnimatedThumbnailMemoryTests.zlibZeros(count: side * side * 3)), to: "big.tif")
        let pixel = try workspace.write(Self.stripTIFF(side: 1, strip: AnimatedThumbnailMemoryTests.zlibZeros(count: 3)), to: "one.tif")
        let base = try await PeakMemoryRunner.run(["convert", pixel, workspace.path("one.bmp")], home: workspace.home)
        let thumbnail = try await PeakMemoryRunner.run(["convert", input, workspace.path("big-thumb.png"), "--thumbnail", "100x100"], home: workspace.home)
        let full = try await PeakMemoryRunner.run(["convert", input, workspace.path("big-full.bmp")], home: workspace.home)
        try #require(base.status == 0 && thumbnail.status == 0 && full.status == 0, "statuses \(base.status) \(thumbnail.status) \(full.status)")
        let what = "thumbnail \((thumbnail.peakBytes - base.peakBytes) / 1_000_000) MB, full \((full.peakBytes - base.peakBytes) / 1_000_000) MB over a baseline of \(base.peakBytes / 1_000_000) MB"
        print("TIFFAndICOCommandTests: 3000x3000 strip TIFF: \(what)")
        #expect(full.peakBytes - base.peakBytes >= side * side * 4, "\(what)")
        #expect((thumbnail.peakBytes - base.peakBytes) * 10 <= full.peakBytes - base.peakBytes, "\(what)")
    }

    @Test func theBombIsRefusedQuietlyAndWithoutMemory() async throws {
        let result = try await run(["convert", "bomb.tif", "bomb.png"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("100000x100000"), "\(result.stderr)")
        #expect(!result.stderr.contains("TIFFReadDirectory"), "libtiff printed: \(result.stderr)")
        guard PeakMemoryRunner.isAvailable else {
            print("TIFFAndICOCommandTests: peak RSS not measured, python3 is not on the PATH")
            return
        }
        let pixel = try workspace.write(try CodersManager.shared.encode(WebImage(bitmap: TestImages.gradient(width: 1, height: 1)), as: .tiff, options: ImageEncodeOptions()), to: "pixel.tif")
        let base = try await PeakMemoryRunner.run(["convert", pixel, workspace.path("pixel.png")], home: workspace.home)
        let bomb = try await PeakMemoryRunner.run(["convert", workspace.path("bomb.tif"), workspace.path("bomb.png")], home: workspace.home)
        print("TIFFAndICOCommandTests: bomb peak RSS \(bomb.peakBytes / 1_000_000) MB, a 1x1 TIFF \(base.peakBytes / 1_000_000) MB")
        #expect(bomb.status != 0)
        #expect(bomb.peakBytes <= base.peakBytes + 16_000_000, "bomb \(bomb.peakBytes), baseline \(base.peakBytes)")
    }
}
