import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebPCoder

/// Progressive decoding: partial data gives partial images (rows that arrived, the rest
/// transparent), the last chunk gives the full decode.
@Suite(.onOwnThreads) struct IncrementalTests {
    let coder = WebPCoder(lossless: true)

    /// Feeds `data` cut at `lengths`, returning the image after each update.
    static func feed(_ decoder: any IncrementalImageDecoder, _ data: Data, at lengths: [Int]) -> [WebImage?] {
        lengths.map { length in
            decoder.update(data: data.prefix(length), finished: length >= data.count)
            return decoder.currentImage()
        }
    }

    /// The rows of `partial` that are decoded (alpha 255 in an opaque image) and whether each
    /// equals the same row of `full`; the other rows must be fully transparent.
    static func checkRows(_ partial: Bitmap, against full: Bitmap, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var decodedRows = 0
        for y in 0..<partial.height {
            let row = (0..<partial.width).map { partial[$0, y] }
            if row.allSatisfy({ $0.alpha == 255 }) {
                #expect(row == (0..<full.width).map { full[$0, y] }, "row \(y) differs from the full decode", sourceLocation: sourceLocation)
                decodedRows += 1
            } else {
                #expect(row.allSatisfy { $0 == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }, "row \(y) is half made", sourceLocation: sourceLocation)
            }
        }
        return decodedRows
    }

    @Test(arguments: [true, false])
    func rowsAppearAsTheirDataArrives(_ lossless: Bool) throws {
        let coder = WebPCoder(lossless: lossless)
        let source = WebImage(bitmap: Pixels.busy(width: 64, height: 64))
        let data = try coder.encode(source, as: .webp)
        let full = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let lengths = stride(from: 8, to: data.count, by: max(1, data.count / 12)).map { $0 } + [data.count]
        let images = Self.feed(decoder, data, at: lengths)
        var rowsSeen: [Int] = []
        for (length, image) in zip(lengths, images) where length < data.count {
            guard let image else { continue }
            #expect(image.metadata.contains(.incremental))
            #expect(image.pixelSize == PixelSize(width: 64, height: 64))
            rowsSeen.append(Self.checkRows(image.bitmap, against: full.bitmap))
        }
        #expect(rowsSeen.count >= 3, "partial images at \(rowsSeen.count) of \(lengths.count - 1) lengths")
        #expect(rowsSeen == rowsSeen.sorted(), "rows only grow: \(rowsSeen)")
        #expect(rowsSeen.contains { $0 > 0 && $0 < 64 }, "some partial image is partly decoded: \(rowsSeen)")
        let last = try #require(images.last ?? nil)
        #expect(!last.metadata.contains(.incremental))
        #expect(last.bitmap == full.bitmap)
    }

    @Test func lossyImagesWithAlphaShowTheirRowsToo() throws {
        let coder = WebPCoder(lossless: false)
        let data = try coder.encode(WebImage(bitmap: TestImages.gradient(width: 64, height: 64, alpha: true)), as: .webp)
        #expect(Pixels.fourCC(data, at: 12) == "VP8X")
        let full = try coder.decode(data)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        let partial = try #require(Self.feed(decoder, data, at: [data.count * 4 / 5])[0])
        #expect(partial.hasAlpha)
        var decodedRows = 0
        for y in 0..<64 {
            let row = (0..<64).map { partial.bitmap[$0, y] }
            if row.allSatisfy({ $0 == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) }) { continue }
            #expect(row == (0..<64).map { full.bitmap[$0, y] }, "row \(y)")
            decodedRows += 1
        }
        #expect(decodedRows > 0 && decodedRows < 64, "\(decodedRows) rows")
    }

    @Test func nothingUntilTheHeaderIsThere() {
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data: Data("RIFF".utf8), finished: false)
        #expect(decoder.currentImage() == nil)
        decoder.update(data: Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8".utf8), finished: false)
        #expect(decoder.currentImage() == nil)
    }

    @Test func canIncrementallyDecodeWhileTheDataCouldBeWebP() {
        #expect(coder.canIncrementallyDecode(Data()))
        #expect(coder.canIncrementallyDecode(Data("RI".utf8)))
        #expect(coder.canIncrementallyDecode(Data("RIFF\u{1}\u{2}\u{3}\u{4}WE".utf8)))
        #expect(coder.canIncrementallyDecode(Data("RIFF\u{1}\u{2}\u{3}\u{4}WEBPVP8L".utf8)))
        #expect(!coder.canIncrementallyDecode(Data("RIFX".utf8)))
        #expect(!coder.canIncrementallyDecode(Data("RIFF\u{1}\u{2}\u{3}\u{4}WAVE".utf8)))
        #expect(!coder.canIncrementallyDecode(Data([0x89, 0x50, 0x4E, 0x47])))
    }

    @Test func thumbnailsComeScaledWhilePartial() throws {
        let data = try coder.encode(WebImage(bitmap: Pixels.busy(width: 64, height: 64)), as: .webp)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let decoder = coder.makeIncrementalDecoder(options: options)
        let images = Self.feed(decoder, data, at: [data.count * 3 / 4, data.count])
        let partial = try #require(images[0])
        #expect(partial.pixelSize == PixelSize(width: 16, height: 16))
        #expect(partial.metadata == [.decoded, .thumbnail, .incremental])
        let final = try #require(images[1])
        #expect(final.metadata == [.decoded, .thumbnail])
        #expect(final.bitmap == (try coder.decode(data, options: options)).bitmap)
    }

    @Test func theSameDataGivesTheSameImageWithoutDecodingAgain() throws {
        let data = try coder.encode(WebImage(bitmap: Pixels.busy(width: 32, height: 32)), as: .webp)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data: data.prefix(data.count * 2 / 3), finished: false)
        let first = try #require(decoder.currentImage())
        let second = try #require(decoder.currentImage())
        #expect(first.bitmap == second.bitmap)
    }

    @Test func anImageOverThePixelLimitGivesNoPartialImage() throws {
        let data = try coder.encode(WebImage(bitmap: Pixels.busy(width: 32, height: 32)), as: .webp)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 100
        let decoder = coder.makeIncrementalDecoder(options: options)
        #expect(Self.feed(decoder, data, at: [data.count / 2, data.count - 1, data.count]).allSatisfy { $0 == nil })
    }

    @Test func corruptDataEndsThePartialImages() throws {
        let data = try WebPCoder(lossless: false).encode(WebImage(bitmap: Pixels.busy(width: 64, height: 64)), as: .webp)
        var bytes = [UInt8](data)
        bytes[23] ^= 0xFF  // the VP8 start code
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        #expect(Self.feed(decoder, Data(bytes), at: [40, bytes.count / 2, bytes.count - 1]).allSatisfy { $0 == nil })
        decoder.update(data: Data(bytes), finished: true)
        #expect(decoder.currentImage() == nil)
    }

    @Test func animationsShowTheirFirstFrameOnceItIsComplete() throws {
        let data = try AnimationTests.handMadeAnimation()
        let firstFrameEnd = try #require(AnimationTests.offsets(of: "ANMF", in: [UInt8](data)).dropFirst().first)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        // 30 bytes: the VP8X chunk alone (its flags say "animated"), then the ANIM chunk.
        let images = Self.feed(decoder, data, at: [30, 44, firstFrameEnd - 4, firstFrameEnd + 2, data.count - 1, data.count])
        #expect(images[0...2].allSatisfy { $0 == nil }, "the first frame's data is not complete yet")
        let poster = try #require(images[3])
        #expect(!poster.isAnimated)
        #expect(poster.metadata.contains(.incremental))
        #expect(poster.bitmap == AnimationTests.expectedFrames()[0])
        #expect(images[4]?.bitmap == poster.bitmap)
        let final = try #require(images[5])
        #expect(final.frameCount == 5)
        #expect(!final.metadata.contains(.incremental))
    }

    @Test func theCodersManagerPicksTheWebPDecoderFromTheFirstBytes() throws {
        let data = try coder.encode(WebImage(bitmap: Pixels.busy(width: 64, height: 64)), as: .webp)
        let manager = CodersManager([coder])
        #expect(manager.canIncrementallyDecode(data.prefix(20)))
        let decoder = manager.makeIncrementalDecoder(options: ImageDecodeOptions())
        let images = Self.feed(decoder, data, at: [6, data.count * 3 / 4, data.count])
        #expect(images[0] == nil)
        #expect(images[1]?.metadata.contains(.incremental) == true)
        #expect(images[2]?.bitmap == (try coder.decode(data)).bitmap)
    }

    @Test func aShorterUpdateStartsOver() throws {
        // Lossless rows come out 16 at a time: both images are tall enough to show some early.
        let first = try coder.encode(WebImage(bitmap: Pixels.busy(width: 64, height: 64, seed: 1)), as: .webp)
        let second = try coder.encode(WebImage(bitmap: Pixels.busy(width: 40, height: 40, seed: 2)), as: .webp)
        #expect(second.count < first.count)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data: first.prefix(first.count - 1), finished: false)
        #expect(decoder.currentImage()?.pixelSize == PixelSize(width: 64, height: 64))
        decoder.update(data: second.prefix(second.count - 1), finished: false)
        #expect(decoder.currentImage()?.pixelSize == PixelSize(width: 40, height: 40))
    }
}
