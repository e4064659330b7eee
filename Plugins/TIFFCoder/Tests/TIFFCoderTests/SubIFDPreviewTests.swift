import Foundation
import Testing
import WebImageTestSupport
import TIFFCoder
import WebImageCore

/// A reduced-resolution image in a SubIFD of the first page (tag 330, as DNG and many camera
/// TIFFs store their previews): used for a thumbnail that fits it, never counted as a page.
@Suite(.onOwnThreads) struct SubIFDPreviewTests {
    /// A 64x48 red page whose SubIFD holds a 16x12 blue preview (NewSubfileType 1), both
    /// uncompressed 8-bit RGB, written byte by byte.
    static let file: Data = {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
            le16(tag) + le16(type) + le32(count) + (type == 3 && count == 1 ? le16(value) + [0, 0] : le32(value))
        }
        let ifdSize = 2 + 10 * 12 + 4
        let ifd0 = 8, bps0 = ifd0 + ifdSize, ifd1 = bps0 + 6, bps1 = ifd1 + ifdSize
        let strip0 = bps1 + 6, strip0Bytes = 64 * 48 * 3, strip1 = strip0 + strip0Bytes, strip1Bytes = 16 * 12 * 3
        var out: [UInt8] = [0x49, 0x49, 42, 0] + le32(ifd0)
        out += le16(10)
        out += entry(256, 4, 1, 64) + entry(257, 4, 1, 48) + entry(258, 3, 3, bps0) + entry(259, 3, 1, 1) + entry(262, 3, 1, 2)
        out += entry(273, 4, 1, strip0) + entry(277, 3, 1, 3) + entry(278, 4, 1, 48) + entry(279, 4, 1, strip0Bytes) + entry(330, 4, 1, ifd1)
        out += le32(0) + le16(8) + le16(8) + le16(8)
        out += le16(10)
        out += entry(254, 4, 1, 1) + entry(256, 4, 1, 16) + entry(257, 4, 1, 12) + entry(258, 3, 3, bps1) + entry(259, 3, 1, 1)
        out += entry(262, 3, 1, 2) + entry(273, 4, 1, strip1) + entry(277, 3, 1, 3) + entry(278, 4, 1, 12) + entry(279, 4, 1, strip1Bytes)
        out += le32(0) + le16(8) + le16(8) + le16(8)
        for _ in 0..<(64 * 48) { out += [255, 0, 0] }
        for _ in 0..<(16 * 12) { out += [0, 0, 255] }
        return Data(out)
    }()

    @Test func aThumbnailThatFitsTheSubIFDComesFromIt() throws {
        let full = try TIFFCoder().decode(Self.file)
        #expect(full.pixelSize == PixelSize(width: 64, height: 48) && full.frameCount == 1)
        #expect(full.bitmap[3, 3] == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(try TIFFCoder().readProperties(of: Self.file).frameCount == 1)

        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let small = try TIFFCoder().decode(Self.file, options: options)
        #expect(small.pixelSize == PixelSize(width: 16, height: 12))
        #expect(small.bitmap[3, 3] == RGBAColor(red: 0, green: 0, blue: 255), "decoded from the SubIFD")

        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let larger = try TIFFCoder().decode(Self.file, options: options)
        #expect(larger.pixelSize == PixelSize(width: 32, height: 24))
        #expect(larger.bitmap[3, 3] == RGBAColor(red: 255, green: 0, blue: 0), "the preview is too small: decoded from the page")
    }
}
