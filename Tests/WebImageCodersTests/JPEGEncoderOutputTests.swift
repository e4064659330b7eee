import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCoders
import WebImageCore

/// The encoder's output buffer: it starts at 3/4 byte a pixel plus 16 KB and grows by realloc
/// when a file needs more; the data handed back is exactly the JPEG, taken over without a copy.
@Suite(.onOwnThreads) struct JPEGEncoderOutputTests {
    /// Noise at quality 100 needs several bytes a pixel: far past the initial buffer.
    @Test func dataLargerThanTheInitialBufferIsComplete() throws {
        let noise = try JPEGScaleDownTests.noise(width: 256, height: 256, alpha: false)
        let data = try JPEGCoder.encode(noise, quality: 100, progressive: false)
        #expect(data.count > 256 * 256 * 3 / 4 + 16384)
        #expect(data.starts(with: [0xFF, 0xD8]) && data.suffix(2) == Data([0xFF, 0xD9]))
        let decoded = try JPEGCoder().decode(data)
        #expect(decoded.pixelSize == PixelSize(width: 256, height: 256))
        #expect(!decoded.metadata.contains(.incremental))
    }

    @Test(arguments: [false, true])
    func smallDataIsExactlyTheFile(_ progressive: Bool) throws {
        let data = try JPEGCoder.encode(TestImages.gradient(width: 300, height: 200), quality: 80, progressive: progressive)
        #expect(data.count < 300 * 200 * 3 / 4 + 16384)
        #expect(data.starts(with: [0xFF, 0xD8]) && data.suffix(2) == Data([0xFF, 0xD9]))
        let decoded = try JPEGCoder().decode(data)
        #expect(decoded.pixelSize == PixelSize(width: 300, height: 200))
        #expect(!decoded.metadata.contains(.incremental))
    }
}
