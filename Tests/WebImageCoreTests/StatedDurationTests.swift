import Foundation
import Testing
import WebImageCore

/// The stated frame delays next to the played ones: ``ImageFrame/statedDuration``,
/// ``AnimatedImageProvider/statedDuration(at:)`` (and its default),
/// ``AnimatedImage/statedDurations`` and ``WebImage/statedFrameDurations``, through the eager
/// and lazy paths and `firstFrameOnly`.
@Suite struct StatedDurationTests {
    /// A provider that plays every delay of 10 ms or less for 100 ms, as the GIF coder does,
    /// and states the raw delays.
    final class NormalizingProvider: AnimatedImageProvider {
        let animatedImageData = Data([1, 2, 3])
        let format = ImageFormat.gif
        let pixelSize = PixelSize(width: 2, height: 2)
        let loopCount: Int? = 0
        let stated: [Double]

        init(stated: [Double]) {
            self.stated = stated
        }

        var frameCount: Int { stated.count }

        func duration(at index: Int) -> Double {
            stated[index] <= 0.01 ? 0.1 : stated[index]
        }

        func statedDuration(at index: Int) -> Double {
            stated[index]
        }

        func frame(at index: Int) throws -> Bitmap {
            try Bitmap(width: 2, height: 2, fill: RGBAColor(red: UInt8(index), green: 0, blue: 0))
        }
    }

    /// A provider that does not implement `statedDuration(at:)`: a plug-in written before it.
    final class PlainProvider: AnimatedImageProvider {
        let animatedImageData = Data([1, 2, 3])
        let format = ImageFormat.webp
        let pixelSize = PixelSize(width: 2, height: 2)
        let frameCount = 3
        let loopCount: Int? = 0

        func duration(at index: Int) -> Double { Double(index + 1) / 10 }

        func frame(at index: Int) throws -> Bitmap {
            try Bitmap(width: 2, height: 2, fill: .white)
        }
    }

    static let stated = [0, 0.05, 0.01, 0.25]
    static let played = [0.1, 0.05, 0.1, 0.25]

    // MARK: - ImageFrame

    @Test func aFrameStatesWhatItPlaysUnlessToldOtherwise() throws {
        let bitmap = try Bitmap(width: 1, height: 1, fill: .white)
        var frame = ImageFrame(bitmap: bitmap, duration: 0.2)
        #expect(frame.statedDuration == 0.2)
        frame.duration = 0.3
        #expect(frame.statedDuration == 0.3, "follows the duration while none was stated")
        #expect(frame == ImageFrame(bitmap: bitmap, duration: 0.3, statedDuration: 0.3))

        var stated = ImageFrame(bitmap: bitmap, duration: 0.1, statedDuration: 0)
        #expect(stated.statedDuration == 0)
        stated.duration = 0.5
        #expect(stated.statedDuration == 0, "a stated delay stays when the played one changes")
        stated.statedDuration = 0.02
        #expect(stated.statedDuration == 0.02)

        #expect(ImageFrame(bitmap: bitmap, duration: 0.1, statedDuration: 0) != ImageFrame(bitmap: bitmap, duration: 0.1))
        #expect(Set([ImageFrame(bitmap: bitmap, duration: 0.1), ImageFrame(bitmap: bitmap, duration: 0.1, statedDuration: 0.1)]).count == 1)
        #expect(ImageFrame(bitmap: bitmap).statedDuration == 0)
    }

    // MARK: - Providers and AnimatedImage

    @Test func theDefaultStatedDurationIsTheDuration() throws {
        let provider = PlainProvider()
        #expect((0..<3).map { provider.statedDuration(at: $0) } == [0.1, 0.2, 0.3])
        let animated = try AnimatedImage(provider: provider)
        #expect(animated.statedDurations == animated.durations)
        let image = try WebImage(provider: provider, preloadAllFrames: false)
        #expect(image.statedFrameDurations == [0.1, 0.2, 0.3])
    }

    @Test func anAnimatedImageKeepsTheStatedDurations() throws {
        let animated = try AnimatedImage(provider: NormalizingProvider(stated: Self.stated))
        #expect(animated.durations == Self.played)
        #expect(animated.statedDurations == Self.stated)
    }

    // MARK: - WebImage

    @Test("lazy and eager images carry the same stated durations", arguments: [false, true])
    func lazyAndEager(preloadAllFrames: Bool) throws {
        let image = try WebImage(provider: NormalizingProvider(stated: Self.stated), preloadAllFrames: preloadAllFrames)
        #expect(image.isLazilyAnimated == !preloadAllFrames)
        #expect(image.frameDurations == Self.played)
        #expect(image.statedFrameDurations == Self.stated)
        #expect(try image.frame(at: 2).statedDuration == 0.01)
        #expect(try image.frame(at: 2).duration == 0.1)
        #expect(try image.allFrames().map(\.statedDuration) == Self.stated)
        #expect(try image.allFrames().map(\.duration) == Self.played)
    }

    @Test func framesMadeInMemoryStateWhatTheyPlay() throws {
        let bitmap = try Bitmap(width: 2, height: 2, fill: .white)
        let image = try WebImage(frames: [ImageFrame(bitmap: bitmap, duration: 0.1), ImageFrame(bitmap: bitmap, duration: 0.1, statedDuration: 0)])
        #expect(image.frameDurations == [0.1, 0.1])
        #expect(image.statedFrameDurations == [0.1, 0])
    }

    @Test func aStillImageStatesZero() throws {
        let still = WebImage(bitmap: try Bitmap(width: 2, height: 2, fill: .white))
        #expect(still.statedFrameDurations == [0])
        #expect(still.frameDurations == [0])
    }

    @Test("firstFrameOnly is a still: it states and plays 0", arguments: [false, true])
    func firstFrameOnly(preloadAllFrames: Bool) throws {
        let image = try WebImage(provider: NormalizingProvider(stated: [0.5, 0.01]), preloadAllFrames: preloadAllFrames)
        let still = image.firstFrameOnly
        #expect(still.statedFrameDurations == [0])
        #expect(still.frameDurations == [0])
        #expect(image.statedFrameDurations == [0.5, 0.01], "the original keeps its stated durations")
    }
}
