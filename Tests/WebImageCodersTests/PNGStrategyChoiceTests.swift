import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// Issue 34: the PNG encoder's zlib strategy is the smallest of `Z_RLE`, `Z_FILTERED` (Pillow's,
/// so thumbor's) and the default, `Z_RLE` kept within 0.5% of the best; on a small image the
/// three are tried on the whole image, so the choice can be checked exactly.
@Suite(.onOwnThreads) struct PNGStrategyChoiceTests {
    static let zFiltered: Int32 = 1
    static let zRLE: Int32 = 3

    static func bitmaps() -> [(String, Bitmap)] {
        var generator = SplitMix64(seed: 34)
        let noisy = Pixels.make(width: 90, height: 60, hasAlpha: false) { x, y in
            let value = generator.next()
            return RGBAColor(red: UInt8(clamping: x * 2 + Int(value % 9)), green: UInt8(clamping: y * 3 + Int((value >> 8) % 9)), blue: 120)
        }
        return [("smooth", Pixels.smooth(width: 90, height: 60)), ("quadrants", Pixels.quadrants(width: 90, height: 60)),
                ("noisy gradient", noisy), ("gradient", TestImages.gradient(width: 90, height: 60))]
    }

    @Test func theSmallestStrategyIsChosenRunLengthWithinHalfAPerCent() throws {
        for (name, bitmap) in Self.bitmaps() {
            let sizes = try [Self.zRLE, Self.zFiltered, 0].map {
                try PNGEncoding.compress(bitmap, colorType: .rgb, level: 6, strategy: $0, rows: 0..<bitmap.height).count
            }
            let best = sizes.indices.min { sizes[$0] < sizes[$1] }!
            let expected: Int32 = sizes[0] <= sizes[best] + sizes[best] / 200 ? Self.zRLE : [Self.zRLE, Self.zFiltered, 0][best]
            #expect(try PNGEncoding.chooseStrategy(bitmap, colorType: .rgb, level: 6) == expected, "\(name): \(sizes)")
        }
    }

    /// The encoder's output is never larger than the best of the three strategies by more than
    /// the run-length allowance (plus the chunks around the data).
    @Test func theOutputIsAsSmallAsTheBestStrategy() throws {
        for (name, bitmap) in Self.bitmaps() {
            let best = try [Self.zRLE, Self.zFiltered, 0].map {
                try PNGEncoding.compress(bitmap, colorType: .rgb, level: 6, strategy: $0, rows: 0..<bitmap.height).count
            }.min()!
            let chosen = try PNGEncoding.compress(bitmap, colorType: .rgb, level: 6)
            #expect(chosen.count <= best + best / 200, "\(name): \(chosen.count), best \(best)")
        }
    }
}
