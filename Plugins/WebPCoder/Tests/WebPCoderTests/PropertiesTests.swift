import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebPCoder

/// The header reader (``WebPCoder/readProperties(of:)``): what a decode would report, from the
/// headers alone, and errors for what is not WebP or is cut short.
@Suite(.onOwnThreads) struct PropertiesTests {
    let coder = WebPCoder()

    @Test func aStillGivesItsSizeAndAlpha() throws {
        let opaque = try coder.encode(WebImage(bitmap: Pixels.busy(width: 60, height: 40)), as: .webp)
        let properties = try coder.readProperties(of: opaque)
        #expect(properties.format == .webp)
        #expect(properties.pixelSize == PixelSize(width: 60, height: 40))
        #expect(properties.frameCount == 1)
        #expect(!properties.hasAlpha)
        #expect(properties.embeddedThumbnailSizes.isEmpty)
        let transparent = try WebPCoder(lossless: true).encode(WebImage(bitmap: TestImages.solid(RGBAColor(red: 9, green: 9, blue: 9, alpha: 100), width: 5, height: 7)), as: .webp)
        let alpha = try coder.readProperties(of: transparent)
        #expect(alpha.hasAlpha)
        #expect(alpha.pixelSize == PixelSize(width: 5, height: 7))
    }

    @Test func anAnimationGivesItsCanvasFramesAndLoopCount() throws {
        let properties = try coder.readProperties(of: AnimationTests.handMadeAnimation())
        let decoded = try coder.decode(AnimationTests.handMadeAnimation())
        #expect(properties.pixelSize == decoded.pixelSize)
        #expect(properties.frameCount == decoded.frameCount)
        #expect(properties.loopCount == 3)
        #expect(properties.frameDurations.prefix(2) == [0.04, 0.25])
    }

    @Test func dataThatIsNotWebPOrIsCutShortThrowsBadImageData() throws {
        let data = try coder.encode(WebImage(bitmap: Pixels.busy(width: 60, height: 40)), as: .webp)
        for bad in [Data("not an image at all".utf8), data.prefix(20)] {
            #expect(throws: WebImageError.self) { try coder.readProperties(of: bad) }
            do { _ = try coder.readProperties(of: bad) } catch let error as WebImageError {
                #expect(error.code == .badImageData)
            }
        }
    }
}
