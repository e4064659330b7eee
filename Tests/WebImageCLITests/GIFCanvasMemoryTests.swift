import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Converting a full-size GIF animation holds the poster and the canvas, not a third frame
/// (issue 19): frames are decoded a row at a time straight into the canvas, so neither a
/// frame-size RGBA buffer nor a frame of palette indices is made besides it. The input is the
/// shape of the `scripts/hostile` row "GIF, 2 frames of 7000x7000 (no pixel data)", at 2000x2000
/// (16 MB of RGBA a frame) so that the debug executable finishes in seconds.
///
/// Measured with the debug build on this file (over a baseline of a 1-pixel convert): before
/// (b7415aa) about 3.2 frames over the baseline (poster, the canvas copied on write, the frame's
/// own RGBA buffer, its indices); after, about 2.
@Suite(.onOwnThreads, .serialized) struct GIFCanvasMemoryTests {
    static let side = 2000
    static var frameBytes: Int { side * side * 4 }
    /// The most the convert may take over the baseline: two and a half frames.
    static var bound: Int { frameBytes * 5 / 2 }

    let workspace = Workspace()

    /// A GIF of 2 frames that cover a `side` x `side` screen, each with a transparent colour and
    /// LZW data that ends at once (every pixel missing, so the frames stay transparent).
    static func emptyFramesGIF(side: Int) -> Data {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var bytes = Array("GIF89a".utf8) + le16(side) + le16(side) + [0xF0, 0, 0]
        bytes += [0, 0, 0, 255, 0, 0]  // global colour table: 2 entries
        bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        for _ in 0..<2 {
            bytes += [0x21, 0xF9, 0x04, 0x05, 1, 0, 1, 0]  // transparent index 1, keep, 10 ms
            bytes += [0x2C] + le16(0) + le16(0) + le16(side) + le16(side) + [0]
            bytes += [0x02, 0x01, 4 | (5 << 3), 0x00]  // minimum code size 2; clear, end
        }
        bytes.append(0x3B)
        return Data(bytes)
    }

    @Test("converting a 2-frame full-size GIF to PNG holds about two frames over the baseline, not three")
    func convertHoldsTwoFrames() async throws {
        guard PeakMemoryRunner.isAvailable else {
            print("GIFCanvasMemoryTests: skipped, python3 (which measures the child's peak RSS) is not on the PATH")
            return
        }
        let input = try workspace.write(Self.emptyFramesGIF(side: Self.side), to: "empty.gif")
        let still = try workspace.write(try PNGCoder().encode(WebImage(bitmap: Bitmap(width: 1, height: 1, fill: .white)), as: .png), to: "pixel.png")
        let base = try await PeakMemoryRunner.run(["convert", still, workspace.path("pixel.gif")], home: workspace.home)
        try #require(base.status == 0)
        let outcome = try await PeakMemoryRunner.run(["convert", input, workspace.path("out.png")], home: workspace.home)
        #expect(outcome.status == 0)
        let decoded = try PNGCoder().decode(try Data(contentsOf: workspace.url.appendingPathComponent("out.png")), options: ImageDecodeOptions())
        #expect(decoded.frameCount == 2 && decoded.pixelSize == PixelSize(width: Self.side, height: Self.side))
        #expect(try decoded.frame(at: 1).bitmap[7, 9] == .clear)
        let extra = outcome.peakBytes - base.peakBytes
        let what = "\(extra / 1_000_000) MB over the baseline of \(base.peakBytes / 1_000_000) MB (\(Double(extra) / Double(Self.frameBytes)) frames); bound \(Self.bound / 1_000_000) MB"
        #expect(extra <= Self.bound, "\(what)")
        print("GIFCanvasMemoryTests: \(what)")
    }
}
