import Foundation
import Testing
import WebImageCoders
import WebImageCore
import WebImageTestSupport

/// The GIF and APNG encoders take an animation's frames one at a time (issue 19): their output
/// is byte for byte what the encoders that held every frame wrote, and a lazy animation is
/// read once, frame by frame, without filling its buffer.
@Suite(.onOwnThreads) struct StreamingEncodeTests {
    /// Frame `i` of a deterministic animation: `kind` 0 colour, 1 gray, 2 colour with a
    /// transparent corner.
    static func frame(_ i: Int, kind: Int, width: Int = 40, height: Int = 30) throws -> Bitmap {
        var bitmap = try Bitmap(width: width, height: height, fill: .clear, hasAlpha: kind == 2)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8((x * 7 + i * 31) & 255), g = UInt8((y * 11 + i * 17) & 255), b = UInt8((x * y + i * 5) & 255)
                let alpha: UInt8 = kind == 2 && x < width / 3 && y < height / 3 ? 0 : 255
                bitmap[x, y] = kind == 1 ? RGBAColor(red: r, green: r, blue: r, alpha: 255) : RGBAColor(red: r, green: g, blue: b, alpha: alpha)
            }
        }
        return bitmap
    }

    static let durations = [0.05, 0.1, 0.0, 0.2, 0.07, 0.3]

    /// Every frame held.
    static func eager(_ kinds: [Int]) throws -> WebImage {
        let frames = try kinds.enumerated().map { i, kind in
            ImageFrame(bitmap: try frame(i, kind: kind), duration: durations[i % durations.count])
        }
        return try WebImage(frames: frames, loopCount: 3, format: .gif)
    }

    /// The same frames, made on demand.
    static func lazy(_ kinds: [Int]) throws -> (WebImage, GeneratedFramesProvider) {
        try GeneratedFramesProvider.image(
            pixelSize: PixelSize(width: 40, height: 30),
            durations: kinds.indices.map { durations[$0 % durations.count] }, loopCount: 3
        ) { index in try frame(index, kind: kinds[index]) }
    }

    /// Case, frame kinds, and SHA-256 of the GIF, the PNG, and both with `maxPixelSize` 20x20,
    /// as written by the encoders before they streamed (commit 88f0c25). The 20x20 PNGs of
    /// "colour", "grayThenColourThenAlpha" and "alphaLater" were written again when the PNG
    /// encoder's strategy choice took `Z_FILTERED` in (issue 34: those frames now deflate with
    /// it), held and lazy frames giving the same bytes.
    static let golden: [(String, [Int], String, String, String, String)] = [
        ("colour", [0, 0, 0, 0], "dbbfb4032c49890113c2b1729b5afe06e561de95616dde3ee59910b43dde6a66", "0cb6d4eae5ac833e4438e4e850356a7a9b575064050fbfdafacd04d1e3db1d61", "1f286ee01b28af73b6ac0ca0ff8c0e1286b8ef0b68474f8cdbdd4814bc5db2a2", "7a6a659e96b17793754500988bd52925c157f65bbca0dc2e34bf08c29e7e6971"),
        ("gray", [1, 1, 1], "f6e80df3b2483f464183a83322ca906772655f6029bb29a38336cb4bb4cda248", "060eaa87f09807d957fb7d87c0adbc8f98a08ffe443858130da27d3f68ce07db", "f9a65e9fd9751f97f59c82ee6ecedca05ed559dce9725cdf9a6644ecfd4865c1", "d6f8b9b0eab964df2e0f29410538b015eb7509e18db1726123c7d1591497facb"),
        ("grayThenColourThenAlpha", [1, 0, 2, 0, 1], "0a5cadcca7af76244aa0e165bcb9083dc3c2bd0f3ed3e39ebb9e8af69e641f83", "60c2edb68b33cad92a33d2b2692fc3a6ce449edb164f390389a852e7f7e57d58", "496824955960ac5516f0c412b27c2a5e6c8767f2fda799e821c27e4c7ed63332", "3330dcaba8951c39e57b6c92aac1495ac8f659341dc51ddba41c4dfdf3b78e40"),
        ("alphaLater", [0, 0, 0, 2, 0], "439a37596fb271f573cf0d904b7259cce8caa3c7ac5a9feb62aeadf2248e33d5", "2bcc3cfd8b0b6ddeb3f63d16b46289da8e4ec43eba0a03417d3c1243998d206d", "c8a6b8d0ea0386db0dad5feb41efbb1bc99a070ae798e24e273a72a765bb3042", "9c632ee5ccbf9f507095403cb0083fa6c32fcc28cde179ab48f0ee9254f164f4"),
    ]

    static func hashes(of image: WebImage) throws -> [String] {
        var small = ImageEncodeOptions()
        small.maxPixelSize = PixelSize(width: 20, height: 20)
        return [
            try GIFCoder().encode(image, as: .gif, options: ImageEncodeOptions()),
            try PNGCoder().encode(image, as: .png, options: ImageEncodeOptions()),
            try GIFCoder().encode(image, as: .gif, options: small),
            try PNGCoder().encode(image, as: .png, options: small),
        ].map { SHA256.hash($0).hexString }
    }

    @Test("held frames encode byte for byte as before streaming", arguments: golden)
    func heldFramesEncodeAsBefore(_ golden: (String, [Int], String, String, String, String)) throws {
        let image = try Self.eager(golden.1)
        #expect(try Self.hashes(of: image) == [golden.2, golden.3, golden.4, golden.5], "\(golden.0)")
    }

    @Test("lazy frames encode byte for byte as before streaming", arguments: golden)
    func lazyFramesEncodeAsBefore(_ golden: (String, [Int], String, String, String, String)) throws {
        let (image, _) = try Self.lazy(golden.1)
        #expect(try Self.hashes(of: image) == [golden.2, golden.3, golden.4, golden.5], "\(golden.0)")
    }

    @Test("a GIF encode reads each frame of a lazy animation once, in order, and buffers none")
    func gifReadsEachFrameOnce() throws {
        let (image, provider) = try Self.lazy([0, 2, 0, 0, 1, 0])
        guard case .animated(let animated) = image.storage else { Issue.record("not lazy"); return }
        _ = try GIFCoder().encode(image, as: .gif, options: ImageEncodeOptions())
        #expect(provider.requestedFrames == [0, 1, 2, 3, 4, 5])  // 0 is the poster, made at creation
        #expect(animated.bufferedFrameCount == 1)
    }

    @Test("a PNG encode reads each frame once when frame 0 needs the widest color type")
    func pngReadsEachFrameOnce() throws {
        let (image, provider) = try Self.lazy([2, 0, 1, 0])
        guard case .animated(let animated) = image.storage else { Issue.record("not lazy"); return }
        _ = try PNGCoder().encode(image, as: .png, options: ImageEncodeOptions())
        #expect(provider.requestedFrames == [0, 1, 2, 3])
        #expect(animated.bufferedFrameCount == 1)
    }

    @Test("a PNG encode starts over, in the wider color type, when a later frame needs it")
    func pngStartsOverForAWiderColorType() throws {
        let (image, provider) = try Self.lazy([1, 1, 0, 1])
        let data = try PNGCoder().encode(image, as: .png, options: ImageEncodeOptions())
        // Gray for frames 0-1, frame 2 is colour: frames 1 and 2 are read again in RGB.
        #expect(provider.requestedFrames == [0, 1, 2, 1, 2, 3])
        #expect(data[data.startIndex + 25] == 2)  // IHDR color type: RGB
        let decoded = try PNGCoder().decode(data, options: ImageDecodeOptions())
        for index in 0..<4 {
            #expect(try decoded.frame(at: index).bitmap.bytes == Self.frame(index, kind: [1, 1, 0, 1][index]).bytes)
        }
    }

    @Test("frames keep order, durations, stated durations and loop count through a streamed encode")
    func timingSurvives() throws {
        let stated = [0.0, 0.02, 0.1, 0.25]
        let provider = GeneratedFramesProvider(pixelSize: PixelSize(width: 8, height: 6), durations: stated, loopCount: 5) { index in
            try Bitmap(width: 8, height: 6, fill: RGBAColor(red: UInt8(index * 60), green: 10, blue: 200), hasAlpha: false)
        }
        let image = WebImage(animatedImage: try AnimatedImage(provider: provider))
        for coder in [GIFCoder() as any ImageCoder, PNGCoder()] {
            let format: ImageFormat = coder is GIFCoder ? .gif : .png
            let decoded = try coder.decode(try coder.encode(image, as: format, options: ImageEncodeOptions()), options: ImageDecodeOptions())
            #expect(decoded.frameCount == 4 && decoded.loopCount == 5, "\(format)")
            #expect(decoded.statedFrameDurations == stated, "\(format)")
            for index in 0..<4 {
                #expect(try decoded.frame(at: index).bitmap[3, 3].red == UInt8(index * 60), "\(format) frame \(index)")
            }
        }
    }

    @Test("a frame of another size than frame 0 is an encoding error, not a corrupt file")
    func oddFrameSizeIsAnError() throws {
        let provider = GeneratedFramesProvider(pixelSize: PixelSize(width: 8, height: 6), durations: [0.1, 0.1, 0.1]) { index in
            try Bitmap(width: index == 2 ? 5 : 8, height: 6, fill: .white, hasAlpha: false)
        }
        let image = WebImage(animatedImage: try AnimatedImage(provider: provider))
        for (coder, format) in [(GIFCoder() as any ImageCoder, ImageFormat.gif), (PNGCoder(), .png)] {
            #expect {
                _ = try coder.encode(image, as: format, options: ImageEncodeOptions())
            } throws: { error in
                (error as? WebImageError)?.code == .encodingFailed && "\(error)".contains("frame 2")
            }
        }
    }

    @Test("a lazily transformed animation encodes as the same transform of held frames, each source frame read once per encode")
    func transformedAnimationStreams() throws {
        let kinds = [2, 0, 0, 1]
        let invert: @Sendable (Bitmap) throws -> Bitmap = { bitmap in
            var out = bitmap
            for index in out.bytes.indices where index % 4 != 3 { out.bytes[index] = 255 - out.bytes[index] }
            return out
        }
        let (source, provider) = try Self.lazy(kinds)
        let lazy = try source.mappingFrames(transformerKey: "invert", invert)
        let eager = try Self.eager(kinds).mappingFrames(transformerKey: "invert", invert)
        #expect(lazy.isLazilyAnimated && !eager.isLazilyAnimated)
        #expect(try GIFCoder().encode(lazy, as: .gif, options: ImageEncodeOptions()) == GIFCoder().encode(eager, as: .gif, options: ImageEncodeOptions()))
        #expect(try PNGCoder().encode(lazy, as: .png, options: ImageEncodeOptions()) == PNGCoder().encode(eager, as: .png, options: ImageEncodeOptions()))
        #expect(provider.requestedFrames == [0, 1, 2, 3, 1, 2, 3])
    }
}
