import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// The zlib strategy choice of the PNG encoder (see `PNGEncoding`): run-length for photographic
/// data, the default strategy for graphics with repeated patterns.
@Suite(.onOwnThreads) struct PNGEncodingStrategyTests {
    static let zDefaultStrategy: Int32 = 0
    static let zRLE: Int32 = 3

    @Test func photographicNoiseUsesRunLengthMatching() throws {
        var generator = SplitMix64(seed: 11)
        var bytes = [UInt8](repeating: 255, count: 300 * 200 * 4)
        for y in 0..<200 {
            for x in 0..<300 {
                // A smooth gradient with independent sensor-like noise per channel.
                let value = generator.next()
                bytes[(y * 300 + x) * 4] = UInt8(clamping: x * 255 / 299 + Int(value % 17) - 8)
                bytes[(y * 300 + x) * 4 + 1] = UInt8(clamping: y + Int(value >> 8 % 17) - 8)
                bytes[(y * 300 + x) * 4 + 2] = UInt8(clamping: 128 + Int((value >> 16) % 17) - 8)
            }
        }
        let bitmap = try Bitmap(width: 300, height: 200, bytes: bytes, hasAlpha: false)
        #expect(try PNGEncoding.chooseStrategy(bitmap, colorType: .rgb, level: 6) == Self.zRLE)
    }

    @Test func repeatedPatternsUseTheDefaultStrategy() throws {
        // A 37-pixel-wide random tile repeated: long-distance matches that run-length misses.
        var generator = SplitMix64(seed: 5)
        let tile = (0..<37 * 3).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var bytes = [UInt8](repeating: 255, count: 296 * 200 * 4)
        for y in 0..<200 {
            for x in 0..<296 {
                for channel in 0..<3 { bytes[(y * 296 + x) * 4 + channel] = tile[(x % 37) * 3 + channel] }
            }
        }
        let bitmap = try Bitmap(width: 296, height: 200, bytes: bytes, hasAlpha: false)
        #expect(try PNGEncoding.chooseStrategy(bitmap, colorType: .rgb, level: 6) == Self.zDefaultStrategy)
        // Either way the data round-trips.
        #expect(try PNGCoder().decode(try PNGCoder().encode(WebImage(bitmap: bitmap), as: .png)).bitmap == bitmap)
    }
}
