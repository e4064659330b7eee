import Foundation
import Testing
import WebImageCore

/// ``WebImage`` with eagerly held frames: still and multi-frame images. Lazily animated images
/// are covered in `AnimatedImageTests`.
@Suite struct WebImageTests {
    static func solid(_ value: UInt8, width: Int = 4, height: Int = 3) throws -> Bitmap {
        try Bitmap(width: width, height: height, fill: RGBAColor(red: value, green: 255 - value, blue: 7))
    }

    static func frames(_ count: Int, width: Int = 4, height: Int = 3) throws -> [ImageFrame] {
        try (0..<count).map { index in
            ImageFrame(bitmap: try solid(UInt8(index * 10), width: width, height: height), duration: Double(index + 1) / 10)
        }
    }

    static func expectInvalidArgument(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected WebImageError.invalidArgument", sourceLocation: sourceLocation)
        } catch let error as WebImageError {
            #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected WebImageError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Still

    @Test func stillImage() throws {
        let bitmap = try Self.solid(50)
        let image = WebImage(bitmap: bitmap)
        #expect(image.frameCount == 1)
        #expect(image.isAnimated == false)
        #expect(image.isLazilyAnimated == false)
        #expect(image.bitmap == bitmap)
        #expect(image.pixelSize == PixelSize(width: 4, height: 3))
        #expect(image.scale == 1)
        #expect(image.format == .undefined)
        #expect(image.metadata == .decoded)
        #expect(image.loopCount == nil)
        #expect(image.extendedData == nil)
        #expect(image.frameDurations == [0])
        #expect(image.hasAlpha == bitmap.hasAlpha)
        #expect(try image.frame(at: 0) == ImageFrame(bitmap: bitmap, duration: 0))
        #expect(try image.allFrames() == [ImageFrame(bitmap: bitmap)])
        #expect(image.memoryCost == 4 * 3 * 4)
    }

    @Test func stillImageKeepsFormatAndMetadata() throws {
        let image = WebImage(bitmap: try Self.solid(1), scale: 2, format: .png, metadata: [.decoded, .thumbnail])
        #expect(image.format == .png)
        #expect(image.metadata == [.decoded, .thumbnail])
        #expect(image.scale == 2)
    }

    @Test func hasAlphaComesFromTheFirstBitmap() throws {
        let opaque = try Bitmap(width: 1, height: 1, fill: .white, hasAlpha: false)
        #expect(WebImage(bitmap: opaque).hasAlpha == false)
        #expect(WebImage(bitmap: try Bitmap(width: 1, height: 1)).hasAlpha)
    }

    @Test("frame(at:) out of range throws invalidArgument", arguments: [-1, 1, 2, Int.max, Int.min])
    func stillFrameOutOfRange(_ index: Int) throws {
        let image = WebImage(bitmap: try Self.solid(0))
        Self.expectInvalidArgument { _ = try image.frame(at: index) }
    }

    // MARK: - Multi-frame

    @Test func multiFrameImage() throws {
        let frames = try Self.frames(3)
        let image = try WebImage(frames: frames, loopCount: 2, format: .gif)
        #expect(image.frameCount == 3)
        #expect(image.isAnimated)
        #expect(image.isLazilyAnimated == false)
        #expect(image.loopCount == 2)
        #expect(image.format == .gif)
        #expect(image.bitmap == frames[0].bitmap)
        #expect(image.frameDurations == [0.1, 0.2, 0.3])
        for index in 0..<3 {
            #expect(try image.frame(at: index) == frames[index])
        }
        #expect(try image.allFrames() == frames)
    }

    @Test func loopCountDefaultsToForever() throws {
        #expect(try WebImage(frames: Self.frames(2)).loopCount == 0)
        #expect(try WebImage(frames: Self.frames(2), loopCount: nil).loopCount == nil)
    }

    @Test func singleFrameImageHasNoLoopCount() throws {
        let image = try WebImage(frames: Self.frames(1), loopCount: 5)
        #expect(image.frameCount == 1)
        #expect(image.isAnimated == false)
        #expect(image.loopCount == nil)
        #expect(image.frameDurations == [0.1])
    }

    @Test("multi-frame frame(at:) out of range throws invalidArgument", arguments: [-1, 3, 4, Int.max, Int.min])
    func multiFrameOutOfRange(_ index: Int) throws {
        let image = try WebImage(frames: Self.frames(3))
        Self.expectInvalidArgument { _ = try image.frame(at: index) }
    }

    @Test func emptyFramesThrow() {
        Self.expectInvalidArgument { _ = try WebImage(frames: []) }
    }

    @Test("frames of different sizes throw invalidArgument", arguments: [
        (4, 3), (3, 4), (4, 4), (1, 1), (0, 0), (40, 30),
    ])
    func mismatchedFrameSizes(width: Int, height: Int) throws {
        var frames = try Self.frames(3)
        frames[2] = ImageFrame(bitmap: try Self.solid(9, width: width, height: height), duration: 0.1)
        let matches = width == 4 && height == 3
        if matches {
            #expect(try WebImage(frames: frames).frameCount == 3)
        } else {
            Self.expectInvalidArgument { _ = try WebImage(frames: frames) }
        }
    }

    @Test func framesWithDifferentRowPaddingButTheSameSizeAreAccepted() throws {
        let tight = try Bitmap(width: 2, height: 2, fill: .white)
        let padded = try Bitmap(width: 2, height: 2, bytesPerRow: 12, bytes: [UInt8](repeating: 255, count: 24))
        let image = try WebImage(frames: [ImageFrame(bitmap: tight, duration: 0.1), ImageFrame(bitmap: padded, duration: 0.1)])
        #expect(image.frameCount == 2)
        // Memory cost counts each frame's bytes, padding included.
        #expect(image.memoryCost == 16 + 24)
    }

    @Test("memoryCost is the sum of the frames' bytes", arguments: [1, 2, 5, 17])
    func memoryCost(_ count: Int) throws {
        let image = try WebImage(frames: Self.frames(count, width: 5, height: 7))
        #expect(image.memoryCost == count * 5 * 7 * 4)
    }

    @Test func emptyBitmapImage() throws {
        let image = WebImage(bitmap: try Bitmap(width: 0, height: 0))
        #expect(image.memoryCost == 0)
        #expect(image.pixelSize == .zero)
        #expect(image.pointSize.width == 0)
        #expect(image.pointSize.height == 0)
    }

    // MARK: - firstFrameOnly

    @Test func firstFrameOnlyOfAnAnimation() throws {
        let frames = try Self.frames(4)
        var image = try WebImage(frames: frames, loopCount: 3, scale: 2, format: .webp, metadata: [.decoded, .transformed])
        image.extendedData = Data([1, 2, 3])
        let still = image.firstFrameOnly
        #expect(still.frameCount == 1)
        #expect(still.isAnimated == false)
        #expect(still.bitmap == frames[0].bitmap)
        #expect(still.scale == 2)
        #expect(still.format == .webp)
        #expect(still.metadata == [.decoded, .transformed])
        #expect(still.extendedData == Data([1, 2, 3]))
        #expect(still.loopCount == nil)
        #expect(still.frameDurations == [0])
        #expect(still.memoryCost == frames[0].bitmap.byteCount)
        // The original keeps its frames.
        #expect(image.frameCount == 4)
    }

    @Test func firstFrameOnlyOfAStillIsTheSameImage() throws {
        var image = WebImage(bitmap: try Self.solid(3), scale: 3, format: .jpeg)
        image.extendedData = Data([9])
        let still = image.firstFrameOnly
        #expect(still.frameCount == 1)
        #expect(still.bitmap == image.bitmap)
        #expect(still.scale == 3)
        #expect(still.format == .jpeg)
        #expect(still.extendedData == Data([9]))
    }

    // MARK: - Scale and point size

    static let scaleCases: [(Double, Double)] = [
        (0, 1), (-2, 1), (0.5, 1), (0.999, 1), (1, 1), (1.5, 1.5), (2, 2), (3, 3), (-.infinity, 1),
    ]

    @Test("scale is clamped to at least 1", arguments: scaleCases)
    func scaleClamped(scale: Double, expected: Double) throws {
        #expect(WebImage(bitmap: try Self.solid(0), scale: scale).scale == expected)
        #expect(try WebImage(frames: Self.frames(2), scale: scale).scale == expected)
    }

    @Test("point size is pixels divided by scale", arguments: [
        (200, 100, 1.0, 200.0, 100.0), (200, 100, 2, 100, 50), (300, 150, 3, 100, 50), (3, 1, 2, 1.5, 0.5), (10, 10, 0.5, 10, 10),
    ])
    func pointSize(width: Int, height: Int, scale: Double, pointWidth: Double, pointHeight: Double) throws {
        let image = WebImage(bitmap: try Bitmap(width: width, height: height), scale: scale)
        #expect(image.pointSize.width == pointWidth)
        #expect(image.pointSize.height == pointHeight)
        #expect(image.pixelSize == PixelSize(width: width, height: height))
    }

    // MARK: - Value semantics

    @Test func copiesAreIndependent() throws {
        let original = try WebImage(frames: Self.frames(2), loopCount: 1, format: .gif)
        var copy = original
        copy.scale = 2
        copy.format = .png
        copy.loopCount = 7
        copy.metadata.insert(.transformed)
        copy.extendedData = Data([1])
        #expect(original.scale == 1)
        #expect(original.format == .gif)
        #expect(original.loopCount == 1)
        #expect(original.metadata == .decoded)
        #expect(original.extendedData == nil)
    }
}
