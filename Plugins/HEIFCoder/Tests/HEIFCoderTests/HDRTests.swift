import Foundation
import HEIFCoder
import Testing
import WebImageTestSupport
import WebImageCore

/// 10-bit (HDR) files decode to RGBA8: libheif reduces the samples to 8 bits.
@Suite(.onOwnThreads) struct HDRTests {
    @Test func tenBitDecodesToEightBit() throws {
        // Flat areas of 10-bit values 1020 (-> 255), 512 (-> 128) and 100 (-> 25).
        let data = try HEIFFileMaker.heic10Bit(width: 64, height: 64) { x, y in
            x < 32 ? (1020, 512, 100) : (y < 32 ? (100, 1020, 512) : (512, 100, 1020))
        }
        let image = try HEIFCoder().decode(data)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(!image.hasAlpha)
        let left = image.bitmap[16, 32], topRight = image.bitmap[48, 16], bottomRight = image.bitmap[48, 48]
        #expect(Pixels.near(left, RGBAColor(red: 255, green: 128, blue: 25, alpha: 255), tolerance: 4), "\(left)")
        #expect(Pixels.near(topRight, RGBAColor(red: 25, green: 255, blue: 128, alpha: 255), tolerance: 4), "\(topRight)")
        #expect(Pixels.near(bottomRight, RGBAColor(red: 128, green: 25, blue: 255, alpha: 255), tolerance: 4), "\(bottomRight)")
    }
}
