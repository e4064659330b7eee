import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import WebImageTransformers

/// What every transformer shares: a solid color stays that color, scale, format, metadata and
/// extended data are kept, every frame of an animation is transformed; plus the custom filter
/// and the pipeline.
@Suite(.onOwnThreads) struct CompositionTests {
    /// One of each, with parameters that keep a solid color solid.
    static let colorKeeping: [any ImageTransformer] = [
        .resize(to: PixelSize(width: 7, height: 5)),
        .resize(to: PixelSize(width: 30, height: 9), mode: .aspectFill, filter: .bicubic),
        .resize(to: PixelSize(width: 30, height: 9), mode: .aspectFit, filter: .bilinear),
        .resize(to: PixelSize(width: 3, height: 3), filter: .box),
        .resize(to: PixelSize(width: 25, height: 20), filter: .nearest),
        .crop(to: PixelRect(x: 2, y: 3, width: 5, height: 4)),
        .flip(horizontal: true, vertical: true),
        .rotate(degrees: 90), .rotate(degrees: 180, fitSize: false), .rotate(by: 0.3), .rotate(by: 2, fitSize: false),
        .roundCorner(radius: 4),
        .blur(radius: 1.5), .blur(radius: 4),
        .colorMatrix(.identity), .brightness(0), .contrast(1), .saturation(1),
        .tint(.white, mode: .multiply), .tint(.black, mode: .screen),
        .filter(name: "identity") { $0 },
        .pipeline([.resize(to: PixelSize(width: 12, height: 12), mode: .aspectFill), .blur(radius: 3), .roundCorner(radius: 3)]),
    ]

    @Test("a solid color stays exactly that color through every transformer", arguments: [
        RGBAColor(red: 200, green: 16, blue: 99), RGBAColor(red: 0, green: 255, blue: 128, alpha: 77),
    ])
    func solidColor(color: RGBAColor) throws {
        let image = WebImage(bitmap: try Bitmap(width: 16, height: 12, fill: color, hasAlpha: color.alpha != 255))
        for transformer in Self.colorKeeping {
            let output = try transformer.transform(image, forKey: "k").bitmap
            // Every visible pixel has the color; pixels that only shape edges (round corner,
            // rotation, letterbox) may be more transparent, never more opaque.
            for pixel in Pictures.pixels(output) where pixel.alpha > 0 {
                #expect(pixel.red == color.red && pixel.green == color.green && pixel.blue == color.blue, "\(transformer.transformerKey): \(pixel)")
                #expect(pixel.alpha <= color.alpha, "\(transformer.transformerKey): \(pixel)")
            }
            #expect(output[output.width / 2, output.height / 2] == color, "\(transformer.transformerKey)")
        }
    }

    @Test("scale, format, metadata and extended data are kept; transformed is added")
    func keepsProperties() throws {
        var image = WebImage(bitmap: Pictures.noise(width: 16, height: 12), scale: 3, format: .jpeg, metadata: [.decoded, .orientationApplied])
        image.extendedData = Data([1, 2, 3])
        for transformer in Self.colorKeeping + Self.smallVariety {
            let output = try transformer.transform(image, forKey: "k")
            #expect(output.scale == 3, "\(transformer.transformerKey)")
            #expect(output.format == .jpeg)
            #expect(output.metadata == [.decoded, .orientationApplied, .transformed], "\(transformer.transformerKey)")
            #expect(output.extendedData == Data([1, 2, 3]))
        }
    }

    /// The key tests' variety without the crops (they depend on the size) and the resizes to
    /// 400x300 (slow in debug builds; ``colorKeeping`` has small resizes).
    static var smallVariety: [any ImageTransformer] {
        TransformerKeyTests.variety().filter { !($0 is CroppingTransformer) && !($0 is ResizingTransformer) }
    }

    static let durations = [0.05, 0.1, 0.15, 0.2, 0.25]

    /// An animation whose frames differ: frame i is noise with seed i, lasting durations[i].
    static func animation(frames: Int = 4, loopCount: Int = 3) throws -> WebImage {
        let list = (0..<frames).map { index in
            ImageFrame(bitmap: Pictures.noise(width: 12, height: 10, seed: UInt64(index + 1) &* 0x9E37_79B9), duration: durations[index])
        }
        return try WebImage(frames: list, loopCount: loopCount, scale: 2, format: .gif, metadata: .decoded)
    }

    @Test("every frame of an animation is transformed; count, durations and loop count are kept")
    func animatedFrames() throws {
        let animation = try Self.animation()
        for transformer in Self.colorKeeping + Self.smallVariety {
            let output = try transformer.transform(animation, forKey: "k")
            #expect(output.frameCount == 4, "\(transformer.transformerKey)")
            #expect(output.frameDurations == [0.05, 0.1, 0.15, 0.2])
            #expect(output.loopCount == 3)
            #expect(output.scale == 2 && output.format == .gif && output.metadata == [.decoded, .transformed])
            // Each frame is the transformation of the same input frame.
            for index in 0..<4 {
                let alone = try transformer.transform(WebImage(bitmap: animation.frame(at: index).bitmap), forKey: "k")
                #expect(try output.frame(at: index).bitmap == alone.bitmap, "\(transformer.transformerKey) frame \(index)")
            }
        }
    }

    @Test("a lazily decoded animation gives a lazily transformed one with the same frames")
    func lazyAnimation() throws {
        let eager = try Self.animation(frames: 5, loopCount: 0)
        let coder = RawBitmapCoder()
        let data = try coder.encode(eager, as: .rawBitmap, options: ImageEncodeOptions())
        let lazy = try coder.decode(data, options: ImageDecodeOptions())
        try #require(lazy.isLazilyAnimated)
        let transformer = PipelineTransformer([.flip(horizontal: true), .resize(to: PixelSize(width: 6, height: 5))])
        let output = try transformer.transform(lazy, forKey: "k")
        #expect(output.isLazilyAnimated)
        #expect(output.frameCount == 5 && output.loopCount == 0)
        #expect(output.frameDurations == [0.05, 0.1, 0.15, 0.2, 0.25])
        let expected = try transformer.transform(eager, forKey: "k")
        for index in 0..<5 {
            #expect(try output.frame(at: index).bitmap == expected.frame(at: index).bitmap)
        }
    }

    @Test("crop of an animation crops every frame")
    func animatedCrop() throws {
        let animation = try Self.animation()
        let output = try animation.transformed(by: .crop(to: PixelRect(x: 1, y: 2, width: 3, height: 4)))
        #expect(output.frameCount == 4 && output.pixelSize == PixelSize(width: 3, height: 4))
        for index in 0..<4 {
            #expect(try output.frame(at: index).bitmap[0, 0] == animation.frame(at: index).bitmap[1, 2])
        }
    }

    // MARK: Filter

    @Test("a custom filter runs on every frame under its own key")
    func customFilter() throws {
        let calls = CallRecorder<PixelSize>()
        let posterize = FilterTransformer(name: "posterize2") { bitmap in
            calls.record(bitmap.size)
            var out = bitmap
            for index in out.bytes.indices where index % 4 != 3 { out.bytes[index] = out.bytes[index] >= 128 ? 255 : 0 }
            return out
        }
        #expect(posterize.transformerKey == "FilterTransformer(posterize2)")
        let output = try posterize.transform(try Self.animation(), forKey: "k")
        #expect(calls.count == 4)
        #expect(try output.allFrames().allSatisfy { frame in frame.bitmap.bytes.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == 0 || $0.element == 255 } })
    }

    struct Boom: Error {}

    @Test("a custom filter's own error is wrapped in transformFailed; a WebImageError passes through")
    func customFilterErrors() throws {
        let failing = FilterTransformer(name: "fails") { _ in throw Boom() }
        let error = #expect(throws: WebImageError.self) { try failing.transform(WebImage(bitmap: TestBitmaps.gray), forKey: "k") }
        #expect(error?.code == .transformFailed)
        #expect(error?.underlyingError is Boom)
        #expect(error?.message.contains("FilterTransformer(fails)") == true)
        let passing = FilterTransformer(name: "passes") { _ in throw WebImageError(.invalidArgument, "mine") }
        let second = #expect(throws: WebImageError.self) { try passing.transform(WebImage(bitmap: TestBitmaps.gray), forKey: "k") }
        #expect(second?.code == .invalidArgument && second?.message == "mine")
        // Frames of different sizes cannot make one image.
        let counter = CallRecorder<Int>()
        let uneven = FilterTransformer(name: "uneven") { bitmap in
            counter.record(1)
            return try bitmap.resampled(to: PixelSize(width: counter.count, height: 2))
        }
        let third = #expect(throws: WebImageError.self) { try uneven.transform(try Self.animation(), forKey: "k") }
        #expect(third?.code == .transformFailed)
    }

    // MARK: Pipeline

    @Test("a pipeline applies its transformers in order")
    func pipelineOrder() throws {
        let source = WebImage(bitmap: Pictures.noise(width: 9, height: 6))
        let pipeline: PipelineTransformer = .pipeline([.crop(to: PixelRect(x: 0, y: 0, width: 4, height: 6)), .rotate(degrees: 90)])
        let output = try pipeline.transform(source, forKey: "k")
        let stepwise = try source.transformed(by: .crop(to: PixelRect(x: 0, y: 0, width: 4, height: 6))).transformed(by: .rotate(degrees: 90))
        #expect(output.bitmap == stepwise.bitmap)
        #expect(output.pixelSize == PixelSize(width: 6, height: 4))
        // The other order is a different image.
        let reversed = try PipelineTransformer([.rotate(degrees: 90), .crop(to: PixelRect(x: 0, y: 0, width: 4, height: 6))]).transform(source, forKey: "k")
        #expect(reversed.bitmap != output.bitmap)
    }

    @Test("each child sees the cache key; the first error stops the pipeline")
    func pipelineKeysAndErrors() throws {
        let first = MockImageTransformer(key: "A")
        let second = MockImageTransformer(key: "B")
        second.error = WebImageError(.transformFailed, "B failed")
        let third = MockImageTransformer(key: "C")
        let pipeline = PipelineTransformer([first, second, third])
        #expect(pipeline.transformerKey == "A-B-C")
        let error = #expect(throws: WebImageError.self) { try pipeline.transform(WebImage(bitmap: TestBitmaps.gray), forKey: "the-key") }
        #expect(error?.message == "B failed")
        #expect(first.calls.all.map(\.key) == ["the-key"])
        #expect(second.calls.all.map(\.key) == ["the-key"])
        #expect(third.calls.count == 0)
    }

    @Test("nested pipelines flatten: same key, same pixels")
    func nestedPipeline() throws {
        let flat: PipelineTransformer = .pipeline([.flip(horizontal: true), .blur(radius: 1), .tint(.white, mode: .multiply)])
        let nested: PipelineTransformer = .pipeline([.flip(horizontal: true), .pipeline([.blur(radius: 1), .tint(.white, mode: .multiply)])])
        #expect(flat.transformerKey == nested.transformerKey)
        let image = WebImage(bitmap: Pictures.noise(width: 8, height: 8))
        #expect(try flat.transform(image, forKey: "k").bitmap == nested.transform(image, forKey: "k").bitmap)
    }

    @Test("an empty pipeline marks the image transformed and changes nothing else")
    func emptyPipeline() throws {
        let image = WebImage(bitmap: Pictures.noise(width: 8, height: 8), scale: 2)
        let output = try PipelineTransformer([]).transform(image, forKey: "k")
        #expect(output.bitmap == image.bitmap && output.scale == 2 && output.metadata == [.decoded, .transformed])
    }

    @Test("transformers run concurrently from many tasks with the same results")
    func concurrentUse() async throws {
        let transformer: PipelineTransformer = .pipeline([.resize(to: PixelSize(width: 20, height: 15), mode: .aspectFill), .roundCorner(radius: 4), .blur(radius: 3.5)])
        let image = WebImage(bitmap: Pictures.noise(width: 40, height: 30))
        let expected = try transformer.transform(image, forKey: "k").bitmap
        let results = try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for _ in 0..<16 { group.addTask { try transformer.transform(image, forKey: "k").bitmap } }
            return try await group.reduce(into: [Bitmap]()) { $0.append($1) }
        }
        #expect(results.count == 16 && results.allSatisfy { $0 == expected })
    }
}
