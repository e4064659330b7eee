import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Converting and transforming an animation holds a few frames at a time, not all of them
/// (issue 19): the peak RSS of a `webimage` child converting a 24-frame APNG stays within a
/// few frames of what converting a 1-pixel image takes (measured by ``PeakMemoryRunner``).
///
/// The frames are 600x600 (1.44 MB of RGBA each, 34.6 MB for all 24) so that the debug
/// executable finishes in seconds. Measured with the debug builds on this file, over a
/// baseline of 34 MB: before streaming (88f0c25) 34 MB (convert to GIF) and 67 MB (convert to
/// PNG with a flip; fetch with a flip); after, 4-9 MB. The release figures for 24 frames of
/// 2000x2000 are in the changelog note.
@Suite(.onOwnThreads, .serialized) struct StreamingMemoryTests {
    static let side = 600
    static let frameCount = 24
    static var frameBytes: Int { side * side * 4 }
    /// The most a command may take over the baseline: ten frames, under half of all of them.
    /// Measured after streaming: 4-9 MB (3-6 frames; `fetch` is the most: it encodes twice, for
    /// the disk cache and the output file, on different threads whose malloc arenas each keep
    /// a freed frame or two).
    static var bound: Int { 10 * frameBytes }

    let workspace = Workspace()

    /// A 24-frame APNG of flat gray frames of `side` x `side` (small on disk), made frame by frame.
    func writeAnimation(side: Int = Self.side) throws -> String {
        let provider = GeneratedFramesProvider(
            pixelSize: PixelSize(width: side, height: side),
            durations: (0..<Self.frameCount).map { index in 0.04 + Double(index % 3) / 100 }, loopCount: 2, format: .png
        ) { index in
            let level = UInt8(20 + index * 9)
            return try Bitmap(width: side, height: side, fill: RGBAColor(red: level, green: level, blue: level), hasAlpha: false)
        }
        let image = WebImage(animatedImage: try AnimatedImage(provider: provider))
        return try workspace.write(try PNGCoder().encode(image, as: .png), to: "animation.png")
    }

    func baseline() async throws -> Int {
        let still = try workspace.write(try PNGCoder().encode(WebImage(bitmap: Bitmap(width: 1, height: 1, fill: .white)), as: .png), to: "pixel.png")
        let outcome = try await PeakMemoryRunner.run(["convert", still, workspace.path("pixel.gif")], home: workspace.home)
        try #require(outcome.status == 0)
        return outcome.peakBytes
    }

    @Test("convert, convert with a flip, and fetch with a flip stay within ten frames of the baseline", arguments: [
        ["convert", "{in}", "{dir}/out.gif"],
        ["convert", "{in}", "{dir}/out.png", "--transform", "flip=h"],
        ["fetch", "{in}", "--output", "{dir}/fetched", "--cache-dir", "{dir}/cache", "--transform", "flip=h"],
    ])
    func peakStaysWithinAFewFrames(_ template: [String]) async throws {
        guard PeakMemoryRunner.isAvailable else {
            print("StreamingMemoryTests: skipped, python3 (which measures the child's peak RSS) is not on the PATH")
            return
        }
        let input = try writeAnimation()
        let base = try await baseline()
        let arguments = template.map {
            $0.replacingOccurrences(of: "{in}", with: input).replacingOccurrences(of: "{dir}", with: workspace.url.path)
        }
        let outcome = try await PeakMemoryRunner.run(arguments, home: workspace.home)
        #expect(outcome.status == 0, "\(template)")
        let extra = outcome.peakBytes - base
        let allFrames = Self.frameCount * Self.frameBytes
        let what = "\(template[0]) \(template.suffix(2).joined(separator: " ").replacingOccurrences(of: "{in} {dir}/", with: "to ")): \(extra / 1_000_000) MB over the baseline of \(base / 1_000_000) MB; bound \(Self.bound / 1_000_000) MB, all frames \(allFrames / 1_000_000) MB"
        #expect(extra <= Self.bound, "\(what)")
        print("StreamingMemoryTests: \(what)")
    }

    @Test("the converted and flipped animation keeps its frames, order, delays and loop count")
    func outputKeepsTheAnimation() async throws {
        let input = try writeAnimation(side: 60)
        let output = workspace.path("flipped.png")
        let result = try await CLIRunner.run(["convert", input, output, "--transform", "flip=h"], home: workspace.home)
        try #require(result.status == 0, "\(result.stderr)")
        let decoded = try PNGCoder().decode(Data(contentsOf: URL(fileURLWithPath: output)), options: ImageDecodeOptions())
        #expect(decoded.frameCount == Self.frameCount && decoded.loopCount == 2)
        let delays: [Double] = (0..<Self.frameCount).map { index in 0.04 + Double(index % 3) / 100 }
        #expect(decoded.statedFrameDurations == delays)
        for index in [0, 1, 12, 23] {
            let level = UInt8(20 + index * 9)
            #expect(try decoded.frame(at: index).bitmap[5, 5] == RGBAColor(red: level, green: level, blue: level), "frame \(index)")
        }
    }
}
