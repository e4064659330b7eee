import Foundation
import Testing
@testable import WebImageCoders
import WebImageCore

/// ``BlockReducer`` keeps an Adam7 thumbnail's sums (one set per reduced pixel) in the narrowest
/// integers that cannot overflow (``BlockReducer/Lane``); every lane gives the reduced image
/// ``BoxReduction/reduce(_:fx:fy:)`` gives, with pixels arriving in any order.
@Suite(.onOwnThreads) struct BlockReducerLaneTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let source: PixelSize
        let target: PixelSize
        let opaque: Bool
        let lane: BlockReducer.Lane
        var testDescription: String { "\(source) to \(target), opaque \(opaque): \(lane)" }
    }

    static let cases = [
        // 13 x 14 blocks (182 pixels, at most 257): 16-bit colour sums for an opaque image.
        Case(source: PixelSize(width: 211, height: 199), target: PixelSize(width: 8, height: 7), opaque: true, lane: .opaqueU16),
        // 17 x 16 blocks (272 pixels): too many for 16 bits; 32-bit sums.
        Case(source: PixelSize(width: 141, height: 130), target: PixelSize(width: 4, height: 4), opaque: true, lane: .u32),
        Case(source: PixelSize(width: 211, height: 199), target: PixelSize(width: 8, height: 7), opaque: false, lane: .u32),
        // 500 x 200 blocks (100,000 pixels, over 66,051): 64-bit sums.
        Case(source: PixelSize(width: 2000, height: 400), target: PixelSize(width: 2, height: 1), opaque: false, lane: .u64),
    ]

    @Test("every lane reduces as the box reduction does", arguments: cases)
    func laneMatchesTheBoxReduction(_ testCase: Case) throws {
        let width = testCase.source.width, height = testCase.source.height
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        var seed: UInt32 = 7
        for index in 0..<(width * height) {
            seed = seed &* 1_103_515_245 &+ 12345
            bytes[index * 4] = UInt8(truncatingIfNeeded: seed >> 24)
            bytes[index * 4 + 1] = UInt8(truncatingIfNeeded: seed >> 16)
            bytes[index * 4 + 2] = UInt8(truncatingIfNeeded: seed >> 8)
            // Saturated values in the opaque cases: the sums reach their bound.
            bytes[index * 4 + 3] = testCase.opaque ? 255 : UInt8(truncatingIfNeeded: seed >> 20 | 0x80)
        }
        if testCase.opaque {
            for index in 0..<(width * height) where index % 3 == 0 {
                bytes[index * 4] = 255; bytes[index * 4 + 1] = 255; bytes[index * 4 + 2] = 255
            }
        }
        var reducer = try #require(BlockReducer(source: testCase.source, target: testCase.target, order: .any, opaque: testCase.opaque))
        #expect(reducer.lane == testCase.lane)
        // Adam7-like arrival: every other column of the rows bottom-up, then the rest top-down.
        for (phase, rows) in [(0, Array((0..<height).reversed())), (1, Array(0..<height))] {
            for y in rows {
                var row: [UInt8] = []
                for x in stride(from: phase, to: width, by: 2) {
                    let start = (y * width + x) * 4
                    row.append(contentsOf: bytes[start..<start + 4])
                }
                row.withUnsafeBytes { reducer.add(row: y, pixels: $0.baseAddress!, firstColumn: phase, step: 2, count: row.count / 4) }
            }
        }
        let bitmap = try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: !testCase.opaque)
        let expected = try BoxReduction.reduce(bitmap, fx: reducer.fx, fy: reducer.fy)
        let reduced = try reducer.reducedBitmap(hasAlpha: !testCase.opaque)
        #expect(reduced.bytes == expected.bytes)
    }

    @Test("pixels that never arrive count as transparent in every lane", arguments: [true, false])
    func missingPixels(opaque: Bool) throws {
        let source = PixelSize(width: 130, height: 130), target = PixelSize(width: 5, height: 5)
        var reducer = try #require(BlockReducer(source: source, target: target, order: .any, opaque: opaque))
        let row = [UInt8](repeating: 255, count: 130 * 4)
        // Only the top half arrives.
        for y in 0..<65 { row.withUnsafeBytes { reducer.add(row: y, pixels: $0.baseAddress!, count: 130) } }
        var bytes = [UInt8](repeating: 0, count: 130 * 130 * 4)
        for index in 0..<(130 * 65 * 4) { bytes[index] = 255 }
        let expected = try BoxReduction.reduce(Bitmap(width: 130, height: 130, bytes: bytes, hasAlpha: true), fx: reducer.fx, fy: reducer.fy)
        #expect(try reducer.reducedBitmap(hasAlpha: true).bytes == expected.bytes)
    }
}
