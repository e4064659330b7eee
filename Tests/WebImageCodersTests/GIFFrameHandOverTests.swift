import Foundation
import Testing
import WebImageTestSupport
import WebImageCoders
import WebImageCore

/// The GIF provider hands its canvas over with a frame no later frame is drawn on (the last, or
/// the one before a keyframe; ``AnimationCanvas/takePixels()``, issue 19). A caller that changes
/// a frame it was given, handed over or shared, never changes what later reads return.
@Suite(.onOwnThreads) struct GIFFrameHandOverTests {
    typealias Fixture = GIFCoderTests

    /// Frame `index`, then scribbled over by the caller.
    static func readAndScribble(_ provider: any AnimatedImageProvider, _ index: Int) throws -> [RGBAColor] {
        var bitmap = try provider.frame(at: index)
        let pixels = Fixture.pixels(bitmap)
        bitmap.bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0x5A) }
        return pixels
    }

    @Test("frames read in any order stay right when the caller changes each one it gets", arguments: [
        [0, 1, 2, 3, 3, 0, 1, 2, 3],
        [3, 3, 2, 1, 0, 3],
        [1, 3, 0, 2, 2, 3, 1],
    ])
    func changedFramesDoNotLeak(order: [Int]) throws {
        let provider = try GIFCoder().makeAnimatedImageProvider(for: Fixture.animation(), options: ImageDecodeOptions())
        for index in order {
            #expect(try Self.readAndScribble(provider, index) == Fixture.expected[index], "frame \(index) in \(order)")
        }
    }

    /// Every frame a keyframe (each covers the screen, opaque): each is handed over in turn.
    @Test func keyframesAreEachHandedOverAndStayRight() throws {
        var gif = Fixture.Builder(width: 2, height: 1, globalPalette: Fixture.palette)
        gif.loop(0)
        let frames = [[0, 1], [2, 3], [1, 0]]
        for indices in frames {
            gif.control(disposal: 1, delay: 5, transparent: nil)
            gif.image(x: 0, y: 0, width: 2, height: 1, indices: indices)
        }
        gif.end()
        let colors = [Fixture.red, Fixture.green, Fixture.blue, Fixture.white]
        let provider = try GIFCoder().makeAnimatedImageProvider(for: gif.data, options: ImageDecodeOptions())
        for index in [0, 1, 2, 1, 1, 0, 2] {
            #expect(try Self.readAndScribble(provider, index) == frames[index].map { colors[$0] }, "frame \(index)")
        }
    }
}
