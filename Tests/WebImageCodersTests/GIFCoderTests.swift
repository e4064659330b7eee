import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// GIFs built by hand (LZW with the code size reset before every code, so each code is a
/// literal: trivially correct data), with expectations from the GIF89a specification.
@Suite(.onOwnThreads) struct GIFCoderTests {
    let coder = GIFCoder()

    /// A minimal GIF builder: the palette entries are (r, g, b) triples.
    struct Builder {
        var data = Data("GIF89a".utf8)

        init(width: Int, height: Int, globalPalette: [[UInt8]]?) {
            data.append(contentsOf: [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)])
            if let globalPalette {
                data.append(contentsOf: [0xF0 | UInt8(Self.bits(globalPalette.count) - 1), 0, 0])
                data.append(contentsOf: Self.table(globalPalette))
            } else {
                data.append(contentsOf: [0, 0, 0])
            }
        }

        static func bits(_ count: Int) -> Int {
            var bits = 1
            while 1 << bits < count { bits += 1 }
            return bits
        }

        static func table(_ palette: [[UInt8]]) -> [UInt8] {
            var entries = palette
            while entries.count < 1 << bits(palette.count) { entries.append([0, 0, 0]) }
            return entries.flatMap { $0 }
        }

        mutating func loop(_ count: Int) {
            data.append(contentsOf: [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, UInt8(count & 0xFF), UInt8(count >> 8), 0])
        }

        mutating func control(disposal: Int, delay: Int, transparent: Int?) {
            data.append(contentsOf: [0x21, 0xF9, 4, UInt8(disposal << 2) | (transparent != nil ? 1 : 0), UInt8(delay & 0xFF), UInt8(delay >> 8), UInt8(transparent ?? 0), 0])
        }

        /// Stored rows must already be in interlaced order when `interlaced`.
        mutating func image(x: Int, y: Int, width: Int, height: Int, indices: [Int], localPalette: [[UInt8]]? = nil, interlaced: Bool = false) {
            data.append(0x2C)
            for value in [x, y, width, height] { data.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)]) }
            var packed: UInt8 = interlaced ? 0x40 : 0
            if let localPalette { packed |= 0x80 | UInt8(Self.bits(localPalette.count) - 1) }
            data.append(packed)
            if let localPalette { data.append(contentsOf: Self.table(localPalette)) }
            // Code size 2 (3-bit codes): clear (4) before every literal keeps the width at 3 bits.
            let minimum = 2
            data.append(UInt8(minimum))
            var bits: [Int] = []
            func put(_ code: Int) { for bit in 0..<3 { bits.append(code >> bit & 1) } }
            for index in indices {
                put(4)
                put(index)
            }
            put(5)
            var bytes: [UInt8] = []
            for start in stride(from: 0, to: bits.count, by: 8) {
                var byte = 0
                for (offset, bit) in bits[start..<min(bits.count, start + 8)].enumerated() { byte |= bit << offset }
                bytes.append(UInt8(byte))
            }
            for start in stride(from: 0, to: bytes.count, by: 255) {
                let chunk = bytes[start..<min(bytes.count, start + 255)]
                data.append(UInt8(chunk.count))
                data.append(contentsOf: chunk)
            }
            data.append(0)
        }

        mutating func end() { data.append(0x3B) }
    }

    static let palette: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]
    static let red = RGBAColor(red: 255, green: 0, blue: 0), green = RGBAColor(red: 0, green: 255, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 255), white = RGBAColor.white, clear = RGBAColor.clear

    static func pixels(_ bitmap: Bitmap) -> [RGBAColor] {
        (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { x in bitmap[x, y] } }
    }

    @Test func stillImageWithGlobalPalette() throws {
        var gif = Builder(width: 2, height: 2, globalPalette: Self.palette)
        gif.image(x: 0, y: 0, width: 2, height: 2, indices: [0, 1, 2, 3])
        gif.end()
        let image = try coder.decode(gif.data)
        #expect(!image.isAnimated)
        #expect(image.format == .gif)
        #expect(Self.pixels(image.bitmap) == [Self.red, Self.green, Self.blue, Self.white])
        #expect(!image.hasAlpha)
    }

    @Test func gif87aWithLocalPaletteDecodes() throws {
        var gif = Builder(width: 1, height: 1, globalPalette: nil)
        gif.data.replaceSubrange(0..<6, with: Array("GIF87a".utf8))
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [1], localPalette: [[1, 2, 3], [4, 5, 6]])
        gif.end()
        #expect(try coder.decode(gif.data).bitmap[0, 0] == RGBAColor(red: 4, green: 5, blue: 6))
    }

    @Test func interlacedRowsLandInPlace() throws {
        // 1x10: stored order is rows 0, 8 | 4 | 2, 6 | 1, 3, 5, 7, 9; value = row % 4.
        let storedRows = [0, 8, 4, 2, 6, 1, 3, 5, 7, 9]
        var gif = Builder(width: 1, height: 10, globalPalette: Self.palette)
        gif.image(x: 0, y: 0, width: 1, height: 10, indices: storedRows.map { $0 % 4 }, interlaced: true)
        gif.end()
        let bitmap = try coder.decode(gif.data).bitmap
        let colors = [Self.red, Self.green, Self.blue, Self.white]
        for row in 0..<10 { #expect(bitmap[0, row] == colors[row % 4], "row \(row)") }
    }

    /// A 2x1 canvas: frame 0 red|green; frame 1 (disposal 2) blue at x = 1; frame 2 (disposal 3)
    /// white at x = 0 with a transparent second pixel; frame 3 transparent at x = 0.
    static func animation() -> Data {
        var gif = Builder(width: 2, height: 1, globalPalette: Self.palette)
        gif.loop(3)
        gif.control(disposal: 1, delay: 0, transparent: nil)
        gif.image(x: 0, y: 0, width: 2, height: 1, indices: [0, 1])
        gif.control(disposal: 2, delay: 1, transparent: nil)
        gif.image(x: 1, y: 0, width: 1, height: 1, indices: [2])
        gif.control(disposal: 3, delay: 7, transparent: 1)
        gif.image(x: 0, y: 0, width: 2, height: 1, indices: [3, 1])
        gif.control(disposal: 0, delay: 50, transparent: 0)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [0])
        gif.end()
        return gif.data
    }

    static let expected: [[RGBAColor]] = [
        [red, green],
        [red, blue],
        [white, clear],  // disposal 2 of frame 1 cleared x = 1; the transparent pixel keeps it clear
        [red, clear],    // disposal 3 of frame 2 restored (red, clear); the transparent pixel keeps red
    ]

    @Test func disposalAndTransparencyFollowTheSpecification() throws {
        let image = try coder.decode(Self.animation())
        #expect(image.isLazilyAnimated)
        #expect(image.frameCount == 4)
        #expect(image.loopCount == 3)
        for index in 0..<4 { #expect(Self.pixels(try image.frame(at: index).bitmap) == Self.expected[index], "frame \(index)") }
    }

    @Test func delaysOfTenMillisecondsOrLessShowForOneHundred() throws {
        #expect(try coder.decode(Self.animation()).frameDurations == [0.1, 0.1, 0.07, 0.5])
    }

    /// Re-encoding writes what the source stated, not the played delay: a GIF frame stating 0
    /// comes back stating 0 (players still show it for 100 ms), in GIF and in APNG.
    @Test func reencodingKeepsTheStatedDelays() throws {
        var gif = Builder(width: 1, height: 1, globalPalette: Self.palette)
        gif.loop(0)
        gif.control(disposal: 0, delay: 0, transparent: nil)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [0])
        gif.control(disposal: 0, delay: 5, transparent: nil)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [1])
        gif.end()
        let image = try coder.decode(gif.data)
        let asGIF = try coder.decode(try coder.encode(image, as: .gif))
        #expect(asGIF.statedFrameDurations == [0, 0.05])
        #expect(asGIF.frameDurations == [0.1, 0.05])
        let png = PNGCoder()
        let asAPNG = try png.decode(try png.encode(image, as: .png))
        #expect(asAPNG.statedFrameDurations == [0, 0.05])
        #expect(asAPNG.frameDurations == [0.1, 0.05])
    }

    /// Two frames stating 0 and 5 hundredths: the first plays for 100 ms, both keep what the
    /// file states (``WebImage/statedFrameDurations``), lazy, eager and through the provider.
    @Test("stated delays are kept next to the played ones", arguments: [false, true])
    func statedDelaysAreKept(preloadAllFrames: Bool) throws {
        var gif = Builder(width: 1, height: 1, globalPalette: Self.palette)
        gif.loop(0)
        gif.control(disposal: 0, delay: 0, transparent: nil)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [0])
        gif.control(disposal: 0, delay: 5, transparent: nil)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [1])
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [2])  // no graphic control: states 0
        gif.end()
        var options = ImageDecodeOptions()
        options.preloadAllFrames = preloadAllFrames
        let image = try coder.decode(gif.data, options: options)
        #expect(image.isLazilyAnimated == !preloadAllFrames)
        #expect(image.frameDurations == [0.1, 0.05, 0.1])
        #expect(image.statedFrameDurations == [0, 0.05, 0])
        #expect(try image.frame(at: 0).statedDuration == 0)
        #expect(try image.frame(at: 0).duration == 0.1)

        let provider = try coder.makeAnimatedImageProvider(for: gif.data, options: ImageDecodeOptions())
        #expect((0..<3).map { provider.statedDuration(at: $0) } == [0, 0.05, 0])
        #expect(provider.statedDuration(at: 3) == 0 && provider.statedDuration(at: -1) == 0)
        #expect(try coder.decode(Self.animation()).statedFrameDurations == [0, 0.01, 0.07, 0.5])
    }

    @Test func aSingleImageOrTheFirstFrameOnlyStatesZero() throws {
        var gif = Builder(width: 1, height: 1, globalPalette: Self.palette)
        gif.control(disposal: 0, delay: 40, transparent: nil)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [0])
        gif.end()
        let still = try coder.decode(gif.data)
        #expect(still.frameDurations == [0] && still.statedFrameDurations == [0])
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let first = try coder.decode(Self.animation(), options: options)
        #expect(first.frameDurations == [0] && first.statedFrameDurations == [0])
        #expect(try coder.makeAnimatedImageProvider(for: Self.animation(), options: options).statedDuration(at: 0) == 0)
    }

    @Test func randomAccessMatchesPlayback() throws {
        let provider = try coder.makeAnimatedImageProvider(for: Self.animation(), options: ImageDecodeOptions())
        for index in [3, 0, 2, 1, 3] { #expect(Self.pixels(try provider.frame(at: index)) == Self.expected[index], "frame \(index)") }
    }

    @Test func preloadFirstFrameOnlyAndThumbnail() throws {
        var options = ImageDecodeOptions()
        options.preloadAllFrames = true
        let eager = try coder.decode(Self.animation(), options: options)
        #expect(!eager.isLazilyAnimated && eager.frameCount == 4)
        options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let still = try coder.decode(Self.animation(), options: options)
        #expect(!still.isAnimated && Self.pixels(still.bitmap) == Self.expected[0])
        options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 1, height: 1)
        let thumbnail = try coder.decode(Self.animation(), options: options)
        #expect(thumbnail.metadata.contains(.thumbnail))
        #expect(try thumbnail.frame(at: 2).bitmap.size == PixelSize(width: 1, height: 1))
    }

    @Test func noLoopExtensionMeansNoStatedLoopCount() throws {
        var gif = Builder(width: 1, height: 1, globalPalette: Self.palette)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [0])
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [1])
        gif.end()
        let image = try coder.decode(gif.data)
        #expect(image.frameCount == 2)
        #expect(image.loopCount == nil)
    }

    /// Browsers honour the first loop extension and ignore later ones.
    @Test func theFirstOfTwoLoopExtensionsWins() throws {
        var gif = Builder(width: 1, height: 1, globalPalette: Self.palette)
        gif.loop(2)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [0])
        gif.loop(7)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [1])
        gif.end()
        let image = try coder.decode(gif.data)
        #expect(image.frameCount == 2)
        #expect(image.loopCount == 2)
        var forever = Builder(width: 1, height: 1, globalPalette: Self.palette)
        forever.loop(0)
        forever.loop(5)
        forever.image(x: 0, y: 0, width: 1, height: 1, indices: [0])
        forever.image(x: 0, y: 0, width: 1, height: 1, indices: [1])
        forever.end()
        #expect(try coder.decode(forever.data).loopCount == 0)
    }

    @Test func imagesPastTheScreenAreClipped() throws {
        var gif = Builder(width: 2, height: 2, globalPalette: Self.palette)
        gif.image(x: 1, y: 1, width: 2, height: 2, indices: [2, 2, 2, 2])
        gif.end()
        let image = try coder.decode(gif.data)
        #expect(image.pixelSize == PixelSize(width: 2, height: 2))
        #expect(Self.pixels(image.bitmap) == [Self.clear, Self.clear, Self.clear, Self.blue])
    }

    /// A 26-byte file whose screen claims 65535 x 65535 fails at once.
    @Test func decompressionBombIsRefusedFromTheHeader() throws {
        var gif = Builder(width: 65535, height: 65535, globalPalette: Self.palette)
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [0])
        gif.end()
        let error = try #require(throws: WebImageError.self) { try coder.decode(gif.data) }
        #expect(error.code == .imageTooLarge)
        #expect(error.message.contains("65535x65535"))
        // An image larger than the limit inside a small screen is refused too.
        var inner = Builder(width: 1, height: 1, globalPalette: Self.palette)
        inner.image(x: 0, y: 0, width: 65535, height: 65535, indices: [0])
        inner.end()
        #expect(throws: WebImageError.self) { try coder.decode(inner.data) }
    }

    @Test func truncatedDataKeepsTheFramesSoFar() throws {
        let data = Self.animation()
        let image = try coder.decode(Data(data.prefix(data.count - 12)))
        #expect(image.metadata.contains(.incremental))
        #expect(image.frameCount >= 3)
        #expect(Self.pixels(try image.frame(at: 1).bitmap) == Self.expected[1])
    }

    @Test func fileWithoutImagesIsBadImageData() throws {
        var gif = Builder(width: 4, height: 4, globalPalette: Self.palette)
        gif.end()
        let error = try #require(throws: WebImageError.self) { try coder.decode(gif.data) }
        #expect(error.code == .badImageData)
    }

    @Test func corruptLZWCodesLeaveTheRestTransparent() throws {
        var gif = Builder(width: 2, height: 1, globalPalette: Self.palette)
        gif.image(x: 0, y: 0, width: 2, height: 1, indices: [1, 1])
        gif.end()
        var bytes = [UInt8](gif.data)
        // The first data byte holds clear (100), literal 1 (001) and two bits of the next clear:
        // make the second code 7, a code not yet defined.
        let start = bytes.count - 1 - 1 - 2  // trailer, block terminator, the 2 data bytes (15 bits)
        bytes[start] = 0b0011_1100
        let image = try coder.decode(Data(bytes))
        #expect(image.bitmap[1, 0].alpha == 0)
    }

    // MARK: encoding

    @Test func stillRoundTripKeepsFewColorsExactly() throws {
        let bitmap = try Bitmap(width: 4, height: 1, bytes: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255], hasAlpha: false)
        let decoded = try coder.decode(try coder.encode(WebImage(bitmap: bitmap), as: .gif))
        #expect(decoded.bitmap.bytes == bitmap.bytes)
    }

    @Test func manyColorsAreQuantizedClosely() throws {
        let source = TestImages.gradient(width: 64, height: 64)
        let decoded = try coder.decode(try coder.encode(WebImage(bitmap: source), as: .gif))
        #expect(PixelHash.maxDifference(decoded.bitmap, source) <= 24)
    }

    @Test func transparencyRoundTrips() throws {
        var bitmap = TestImages.gradient(width: 8, height: 8)
        bitmap.hasAlpha = true
        bitmap[2, 3] = RGBAColor(red: 9, green: 9, blue: 9, alpha: 10)
        let decoded = try coder.decode(try coder.encode(WebImage(bitmap: bitmap), as: .gif)).bitmap
        #expect(decoded[2, 3].alpha == 0)
        #expect(decoded[3, 3].alpha == 255)
    }

    @Test func animationRoundTrips() throws {
        let source = TestImages.animated(frames: 4, width: 5, height: 3, loopCount: 2)
        let data = try coder.encode(source, as: .gif)
        #expect(ImageFormat.detectDetails(data).isAnimated)
        let decoded = try coder.decode(data)
        #expect(decoded.frameCount == 4)
        #expect(decoded.loopCount == 2)
        #expect(decoded.frameDurations == [0.1, 0.1, 0.1, 0.1])
        #expect(try decoded.allFrames().map(\.bitmap.bytes) == source.allFrames().map(\.bitmap.bytes))
    }

    @Test func largeImagesExerciseTheFullLZWTable() throws {
        // Noise-like content fills the 4096-entry table and forces clear codes.
        var bytes = [UInt8](repeating: 255, count: 200 * 150 * 4)
        var generator = SplitMix64(seed: 7)
        for pixel in 0..<200 * 150 {
            let value = generator.next()
            bytes[pixel * 4] = UInt8(truncatingIfNeeded: value) & 0xC0
            bytes[pixel * 4 + 1] = UInt8(truncatingIfNeeded: value >> 8) & 0xE0
            bytes[pixel * 4 + 2] = UInt8(truncatingIfNeeded: value >> 16) & 0xE0
        }
        // 4 x 8 x 8 = 256 colors: the palette holds them exactly, so the round trip is lossless.
        let source = try Bitmap(width: 200, height: 150, bytes: bytes, hasAlpha: false)
        let decoded = try coder.decode(try coder.encode(WebImage(bitmap: source), as: .gif))
        #expect(decoded.bitmap.bytes == source.bytes)
    }
}
