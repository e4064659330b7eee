import Foundation
import Testing
import WebImageCoders
import WebImageCore
import WebImageTestSupport

/// The GIF encoder maps and compresses a row at a time, writing data sub-blocks as they fill
/// (``LZWEncoder``, issue 19): no frame of indices or of compressed data is held. The bytes are
/// those the whole-frame encoder wrote (the hashes below were checked against it), and the data
/// is cut as GIF89a says: blocks of 255 bytes, a shorter last one, a zero-length terminator.
@Suite(.onOwnThreads) struct GIFStreamingEncodeTests {
    /// 200x150 of 256 exact colors, noise-like: the LZW table fills and is cleared many times.
    static func noise(seed: UInt64, alpha: Bool) throws -> Bitmap {
        var bytes = [UInt8](repeating: 255, count: 200 * 150 * 4)
        var generator = SplitMix64(seed: seed)
        for pixel in 0..<200 * 150 {
            let value = generator.next()
            bytes[pixel * 4] = UInt8(truncatingIfNeeded: value) & 0xC0
            bytes[pixel * 4 + 1] = UInt8(truncatingIfNeeded: value >> 8) & 0xE0
            bytes[pixel * 4 + 2] = UInt8(truncatingIfNeeded: value >> 16) & 0xE0
            if alpha, pixel % 7 == 0 { bytes[pixel * 4 + 3] = 0 }
        }
        return try Bitmap(width: 200, height: 150, bytes: bytes, hasAlpha: alpha)
    }

    /// Every image's data sub-blocks: their lengths, the terminator excluded. Walks the blocks
    /// of `data` as GIF89a lays them out.
    static func imageDataBlockLengths(_ data: Data) throws -> [[Int]] {
        let bytes = [UInt8](data)
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 7) + 1) }
        var images: [[Int]] = []
        func subBlocks() -> [Int] {
            var lengths: [Int] = []
            while bytes[offset] != 0 {
                lengths.append(Int(bytes[offset]))
                offset += Int(bytes[offset]) + 1
            }
            offset += 1
            return lengths
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x21:
                offset += 2
                _ = subBlocks()
            case 0x2C:
                let packed = bytes[offset + 9]
                offset += 10
                if packed & 0x80 != 0 { offset += 3 << (Int(packed & 7) + 1) }
                offset += 1  // LZW minimum code size
                images.append(subBlocks())
            case 0x3B:
                return images
            default:
                Issue.record("unexpected block 0x\(String(bytes[offset], radix: 16)) at \(offset)")
                return images
            }
        }
        Issue.record("no trailer")
        return images
    }

    @Test func stillNoiseIsCutIntoFullSubBlocksAndKeepsItsBytes() throws {
        let source = try Self.noise(seed: 7, alpha: false)
        let data = try GIFCoder().encode(WebImage(bitmap: source), as: .gif)
        let blocks = try Self.imageDataBlockLengths(data)
        #expect(blocks.count == 1)
        #expect(blocks[0].count > 100 && blocks[0].dropLast().allSatisfy { $0 == 255 } && (1...255).contains(blocks[0].last ?? 0))
        #expect(try GIFCoder().decode(data).bitmap.bytes == source.bytes)
        #expect(SHA256.hash(data).hexString == "6b157a8eedbd279fae4254b3deaaaec31e58c23fd93c44f7809fa2f8dff2d553")
    }

    @Test func transparentAnimationKeepsItsBytes() throws {
        let frames = try [Self.noise(seed: 1, alpha: true), Self.noise(seed: 2, alpha: true), TestImages.gradient(width: 200, height: 150, seed: 9, alpha: true)]
        let image = try WebImage(frames: frames.map { ImageFrame(bitmap: $0, duration: 0.1) }, loopCount: 2, format: .gif)
        let data = try GIFCoder().encode(image, as: .gif)
        let blocks = try Self.imageDataBlockLengths(data)
        #expect(blocks.count == 3)
        for lengths in blocks { #expect(lengths.dropLast().allSatisfy { $0 == 255 } && (1...255).contains(lengths.last ?? 0)) }
        let decoded = try GIFCoder().decode(data)
        #expect(decoded.frameCount == 3)
        #expect(SHA256.hash(data).hexString == "bdd4e042a91f31bd58a60eefe0d0469c50560425071c4f118db67c50de31bd87")
    }

    /// An image whose compressed data is a whole number of 255-byte blocks gets no empty block
    /// before the terminator: one-row noise images of growing width (a byte or two more each)
    /// cross that boundary.
    @Test func dataOfWholeBlocksEndsWithTheTerminatorAlone() throws {
        let noise = try Self.noise(seed: 11, alpha: false)
        var met = false
        for width in 150...900 where !met {
            let row = try Bitmap(width: width, height: 1, bytes: Array(noise.bytes.prefix(width * 4)), hasAlpha: false)
            let data = try GIFCoder().encode(WebImage(bitmap: row), as: .gif)
            let lengths = try Self.imageDataBlockLengths(data)[0]
            #expect(lengths.allSatisfy { $0 > 0 } && lengths.dropLast().allSatisfy { $0 == 255 }, "width \(width)")
            if lengths.last == 255 {
                met = true
                #expect(try GIFCoder().decode(data).bitmap.bytes == row.bytes)
            }
        }
        #expect(met, "no image of whole blocks was met")
    }
}
