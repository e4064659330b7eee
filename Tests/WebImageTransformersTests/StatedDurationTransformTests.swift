import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import WebImageTransformers

/// Transformers rebuild every frame of an animation: the stated delays (``ImageFrame/statedDuration``)
/// stay next to the played ones, for eager and lazily decoded animations.
@Suite(.onOwnThreads) struct StatedDurationTransformTests {
    /// Frames of noise that play delays of 10 ms or less for 100 ms and state the raw delays.
    final class NormalizingProvider: AnimatedImageProvider {
        let animatedImageData = Data([1, 2, 3])
        let format = ImageFormat.gif
        let pixelSize = PixelSize(width: 12, height: 10)
        let frameCount = StatedDurationTransformTests.stated.count
        let loopCount: Int? = 0

        func duration(at index: Int) -> Double {
            StatedDurationTransformTests.played[index]
        }

        func statedDuration(at index: Int) -> Double {
            StatedDurationTransformTests.stated[index]
        }

        func frame(at index: Int) throws -> Bitmap {
            Pictures.noise(width: 12, height: 10, seed: UInt64(index + 7))
        }
    }

    static let stated = [0, 0.05, 0.01]
    static let played = [0.1, 0.05, 0.1]

    @Test("every transformer keeps the stated durations", arguments: [false, true])
    func statedDurationsSurviveTransforms(preloadAllFrames: Bool) throws {
        let image = try WebImage(provider: NormalizingProvider(), preloadAllFrames: preloadAllFrames)
        try #require(image.isLazilyAnimated == !preloadAllFrames)
        for transformer in CompositionTests.colorKeeping + CompositionTests.smallVariety {
            let output = try transformer.transform(image, forKey: "k")
            #expect(output.frameDurations == Self.played, "\(transformer.transformerKey)")
            #expect(output.statedFrameDurations == Self.stated, "\(transformer.transformerKey)")
        }
    }
}
