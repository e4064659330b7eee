import Testing
@testable import WebImageCoders

/// The pixel-at-a-time Paeth unfilter (``PaethRow``) gives exactly what the byte loop of the
/// PNG specification gives, for 3- and 4-byte pixels, on rows of pseudo-random bytes (every
/// predictor branch is taken) and from a zero row (the first row of an image).
@Suite struct PaethRowTests {
    /// The specification's byte loop.
    static func reference(_ filtered: [UInt8], up: [UInt8], stride: Int) -> [UInt8] {
        var row = filtered
        for index in 1..<row.count {
            let a = index - stride >= 1 ? Int(row[index - stride]) : 0
            let b = Int(up[index])
            let c = index - stride >= 1 ? Int(up[index - stride]) : 0
            row[index] = UInt8((Int(row[index]) + PaethRow.predictor(a, b, c)) & 0xFF)
        }
        return row
    }

    @Test("matches the byte loop", arguments: [3, 4])
    func matchesTheByteLoop(stride: Int) throws {
        var seed: UInt32 = 12345
        func next() -> UInt8 {
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: seed >> 16)
        }
        let count = 1 + stride * 97
        for zeroUp in [true, false] {
            let filtered = [UInt8(4)] + (1..<count).map { _ in next() }
            let up = zeroUp ? [UInt8](repeating: 0, count: count) : [0] + (1..<count).map { _ in next() }
            var row = filtered
            let handled = row.withUnsafeMutableBufferPointer { r in
                up.withUnsafeBufferPointer { PaethRow.unfilter(r.baseAddress!, up: $0.baseAddress!, count: count, stride: stride) }
            }
            #expect(handled)
            #expect(row == Self.reference(filtered, up: up, stride: stride))
            var viaRaster = filtered
            try PNGRaster.unfilter(&viaRaster, previous: up, stride: stride)
            #expect(viaRaster == row)
        }
    }

    @Test func otherStridesAreLeftToTheByteLoop() {
        var row: [UInt8] = [4, 1, 2, 3, 4, 5, 6]
        let up = [UInt8](repeating: 9, count: 7)
        let handled = row.withUnsafeMutableBufferPointer { r in
            up.withUnsafeBufferPointer { PaethRow.unfilter(r.baseAddress!, up: $0.baseAddress!, count: 7, stride: 2) }
        }
        #expect(!handled)
        #expect(row == [4, 1, 2, 3, 4, 5, 6])
    }
}
