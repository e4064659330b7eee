import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// ``PNGUnfilter/paethPair(_:_:previous:count:stride:)`` (two Paeth rows unfiltered in one
/// sweep, as the row decoder does for consecutive Paeth rows) gives the bytes of two
/// row-at-a-time calls, and images of Paeth rows decode the same through the row decoder
/// (thumbnails, interlaced images) and the whole-image decoder.
@Suite(.onOwnThreads) struct PNGPaethPairTests {
    @Test("two Paeth rows at once equal two rows in turn", arguments: [3, 4])
    func pairMatchesRows(stride: Int) throws {
        var generator = SplitMix64(seed: 77 + UInt64(stride))
        for pixels in [1, 2, 3, 5, 64, 333] {
            let count = pixels * stride
            let previous = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let first = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let second = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            // The reference: the scalar kernel a row at a time.
            var expectedFirst = [UInt8](repeating: 0, count: count), expectedSecond = [UInt8](repeating: 0, count: count)
            try PNGUnfilter.row(type: 4, source: first, previous: previous, target: &expectedFirst, count: count, stride: stride, vectorised: false)
            try PNGUnfilter.row(type: 4, source: second, previous: expectedFirst, target: &expectedSecond, count: count, stride: stride, vectorised: false)
            // In place, in one buffer as the row decoder holds them (4 spare bytes after).
            var buffer: [UInt8] = first + second + [0, 0, 0, 0]
            buffer.withUnsafeMutableBufferPointer { buffer in
                PNGUnfilter.paethPair(buffer.baseAddress!, buffer.baseAddress! + count, previous: previous, count: count, stride: stride)
            }
            #expect(Array(buffer[0..<count]) == expectedFirst, "stride \(stride), \(pixels) pixels: first row")
            #expect(Array(buffer[count..<2 * count]) == expectedSecond, "stride \(stride), \(pixels) pixels: second row")
        }
        #expect(PNGUnfilter.pairs(4, 4, stride: stride, vectorised: true))
        #expect(!PNGUnfilter.pairs(4, 1, stride: stride, vectorised: true))
        #expect(!PNGUnfilter.pairs(4, 4, stride: stride, vectorised: false))
    }

    @Test("an image of Paeth rows decodes alike row by row and whole", arguments: [(2, 8), (6, 8)])
    func paethImage(colorType: Int, bitDepth: Int) throws {
        let (width, height) = (97, 61)
        let bitsPerPixel = (colorType == 2 ? 3 : 4) * bitDepth
        var raw = PNGWholeImageTests.filteredRows(width: width, height: height, bitsPerPixel: bitsPerPixel, seed: 5)
        let rowBytes = (width * bitsPerPixel + 7) / 8
        for y in 0..<height where y % 9 != 4 { raw[y * (rowBytes + 1)] = 4 }  // Paeth runs of odd and even length
        let data = PNGWholeImageTests.file(width: width, height: height, colorType: colorType, bitDepth: bitDepth, transparency: nil, raw: raw, chunks: 3)
        let (fast, streaming, complete) = try PNGWholeImageTests.bothPaths(data)
        #expect(complete)
        #expect(fast == streaming)
    }
}
