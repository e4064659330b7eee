import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// `fetch --transform flip=h` of a full-size GIF animation holds two frames, the flipped poster
/// and the flipped frame 1 (issue 19): the source's poster is not kept while it encodes (the
/// executor's queue no longer keeps the finished transform job, and the transformed image keeps
/// the source's frame provider, not the source image); the GIF provider hands its canvas over
/// with the last frame (``AnimationCanvas/takePixels()``) and the flip changes that frame where
/// it lies (``WebImage/mappingFramesInPlace(transformerKey:_:)``), so the canvas is neither copied
/// on write nor flipped into a new bitmap; and the GIF encoder compresses a row of indices at a
/// time, not a frame of them. The input is the shape of the `scripts/hostile` row "GIF, 2 frames
/// of 7000x7000 (no pixel data)", at 2000x2000 (16 MB of RGBA a frame).
///
/// Measured with the debug build over a baseline of a 1-pixel fetch: before (3094da4) 4.14
/// frames (the source's poster and the canvas's copy besides); then 3.14 (the canvas, the
/// flipped poster, the flipped frame 1, the encoder's indices); now 1.93. The release build on
/// the 7000x7000 row: 643 MB, then 410 MB.
@Suite(.onOwnThreads, .serialized) struct GIFFlipMemoryTests {
    static let side = 2000
    static var frameBytes: Int { side * side * 4 }
    /// The most the fetch may take over the baseline: two and a half frames (a third frame,
    /// the canvas kept beside the flipped frame 1, goes over).
    static var bound: Int { frameBytes * 5 / 2 }

    let workspace = Workspace()

    @Test("fetching a 2-frame full-size GIF with flip=h holds the flipped poster and frame 1, not the canvas or the source's poster")
    func flipDoesNotHoldTheSource() async throws {
        guard PeakMemoryRunner.isAvailable else {
            print("GIFFlipMemoryTests: skipped, python3 (which measures the child's peak RSS) is not on the PATH")
            return
        }
        let input = try workspace.write(GIFCanvasMemoryTests.emptyFramesGIF(side: Self.side), to: "empty.gif")
        let still = try workspace.write(try PNGCoder().encode(WebImage(bitmap: Bitmap(width: 1, height: 1, fill: .white)), as: .png), to: "pixel.png")
        let baseOut = workspace.path("base-out")
        let out = workspace.path("out")
        let base = try await PeakMemoryRunner.run(["fetch", "file://" + still, "--no-cache", "--transform", "flip=h", "--output", baseOut], home: workspace.home)
        try #require(base.status == 0)
        let outcome = try await PeakMemoryRunner.run(["fetch", "file://" + input, "--no-cache", "--transform", "flip=h", "--output", out], home: workspace.home)
        #expect(outcome.status == 0)
        let decoded = try GIFCoder().decode(try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("empty.gif")), options: ImageDecodeOptions())
        #expect(decoded.frameCount == 2 && decoded.pixelSize == PixelSize(width: Self.side, height: Self.side))
        let extra = outcome.peakBytes - base.peakBytes
        let what = "\(extra / 1_000_000) MB over the baseline of \(base.peakBytes / 1_000_000) MB (\(Double(extra) / Double(Self.frameBytes)) frames); bound \(Self.bound / 1_000_000) MB"
        #expect(extra <= Self.bound, "\(what)")
        print("GIFFlipMemoryTests: \(what)")
    }
}
