import Foundation
import Testing
import WebImageTestSupport

/// A still PNG thumbnail is made from the rows as they are decoded (issue 21): the peak RSS of
/// `webimage convert --thumbnail 100x100` (a grandchild, its `ru_maxrss` from `wait4`, through
/// ``PeakMemoryRunner``) on a 3000x3000 PNG, interlaced or not, stays under a tenth of what a
/// full decode of the same file takes over the executable's baseline (a 1x1 conversion).
///
/// The file is small on disk (one colour, 9 MP), so that its bytes do not count; the debug
/// executable finishes in seconds. Before streaming, the thumbnail decoded the whole
/// 36 MB bitmap first, as the full decode does.
@Suite(.onOwnThreads, .serialized) struct PNGThumbnailMemoryTests {
    static let side = 3000
    let workspace = Workspace()

    /// An 8-bit palette PNG of `side` x `side`, every pixel index 0, interlaced (Adam7) or not:
    /// its decompressed data is all zero bytes either way.
    static func png(side: Int, interlaced: Bool) -> Data {
        typealias Chunks = AnimatedThumbnailMemoryTests.PNGChunks
        let passes = interlaced ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] : [(0, 0, 1, 1)]
        var rawCount = 0
        for (x0, y0, dx, dy) in passes {
            let width = (side - x0 + dx - 1) / dx, height = (side - y0 + dy - 1) / dy
            if width > 0, height > 0 { rawCount += height * (width + 1) }
        }
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += Chunks.chunk("IHDR", Chunks.be32(side) + Chunks.be32(side) + [8, 3, 0, 0, interlaced ? 1 : 0])
        bytes += Chunks.chunk("PLTE", [40, 120, 200])
        bytes += Chunks.chunk("IDAT", AnimatedThumbnailMemoryTests.zlibZeros(count: rawCount))
        bytes += Chunks.chunk("IEND", [])
        return Data(bytes)
    }

    func peak(_ arguments: [String]) async throws -> Int {
        let outcome = try await PeakMemoryRunner.run(arguments, home: workspace.home)
        try #require(outcome.status == 0, "webimage \(arguments.joined(separator: " ")) failed")
        return outcome.peakBytes
    }

    @Test("a PNG thumbnail peaks under a tenth of a full decode", arguments: [false, true])
    func thumbnailPeakIsATenthOfAFullDecode(interlaced: Bool) async throws {
        guard PeakMemoryRunner.isAvailable else {
            print("PNGThumbnailMemoryTests: skipped, python3 (which measures the child's peak RSS) is not on the PATH")
            return
        }
        let name = interlaced ? "interlaced" : "plain"
        let input = try workspace.write(Self.png(side: Self.side, interlaced: interlaced), to: "\(name).png")
        let pixel = try workspace.write(Self.png(side: 1, interlaced: false), to: "pixel.png")
        let base = try await peak(["convert", pixel, workspace.path("pixel.bmp")])
        let thumbnail = try await peak(["convert", input, workspace.path("\(name)-thumb.png"), "--thumbnail", "100x100"]) - base
        let full = try await peak(["convert", input, workspace.path("\(name)-full.bmp")]) - base
        let bitmapBytes = Self.side * Self.side * 4
        let what = "\(name) \(Self.side)x\(Self.side): thumbnail \(thumbnail / 1_000_000) MB, full decode \(full / 1_000_000) MB over a baseline of \(base / 1_000_000) MB"
        print("PNGThumbnailMemoryTests: \(what)")
        #expect(full >= bitmapBytes, "the full decode holds the bitmap: \(what)")
        #expect(thumbnail * 10 <= full, "\(what)")
        let decoded = try Data(contentsOf: URL(fileURLWithPath: workspace.path("\(name)-thumb.png")))
        #expect(decoded.count > 0)
    }
}
