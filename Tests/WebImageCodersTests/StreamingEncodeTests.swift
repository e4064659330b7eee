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
    /// it), held and lazy frames giving the same bytes. All four 20x20 pairs were written again
    /// when the resampler took opaque frames through its opaque form (issue 36: no premultiply,
    /// within one level of the premultiplied form, checked in ResamplingTests).
    static let golden: [(String, [Int], String, String, String, String)] = [
        ("colour", [0, 0, 0, 0], "dbbfb4032c49890113c2b1729b5afe06e561de95616dde3ee59910b43dde6a66", "0cb6d4eae5ac833e4438e4e850356a7a9b575064050fbfdafacd04d1e3db1d61", "3c76cb0d4b72be449c264f76f4b74581a09f4762b21f1d2d76b6347c8c400d4e", "5794bdb5ed51c507077f08c810c8add2dd1ff55f35a5d01e7669fe68c4915e41"),
        ("gray", [1, 1, 1], "f6e80df3b2483f464183a83322ca906772655f6029bb29a38336cb4bb4cda248", "060eaa87f09807d957fb7d87c0adbc8f98a08ffe443858130da27d3f68ce07db", "382d877c5d5ffd6ab1e2dbfd1533ebb2a7d638740d65f577a1dd72c357daead2", "ed21b4108455c57a343e663562d7e6afb317a9a17fef76b3cfd778aacc20c6df"),
        ("grayThenColourThenAlpha", [1, 0, 2, 0, 1], "0a5cadcca7af76244aa0e165bcb9083dc3c2bd0f3ed3e39ebb9e8af69e641f83", "60c2edb68b33cad92a33d2b2692fc3a6ce449edb164f390389a852e7f7e57d58", "76e02a816812303d4c3786f47b1341c2bba435ea362d6037f3ae382638884098", "479717f53d6f8bc57016df141417d28b8360f632d3df452e5514926ff4336f80"),
        ("alphaLater", [0, 0, 0, 2, 0], "439a37596fb271f573cf0d904b7259cce8caa3c7ac5a9feb62aeadf2248e33d5", "2bcc3cfd8b0b6ddeb3f63d16b46289da8e4ec43eba0a03417d3c1243998d206d", "128a78cd46eb11f35733986a83b12232efa1f79e4e742334d428c6e738afe10b", "f721c83f05af6843873c5cf298d16ff2d26785ca77dfa31961a3365212d8f82d"),
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
