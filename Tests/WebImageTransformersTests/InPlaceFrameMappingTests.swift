import Foundation
import Testing
import WebImageCore
import WebImageTestSupport
import WebImageTransformers

/// ``WebImage/mappingFramesInPlace(transformerKey:_:)`` (issue 19): the later frames of a lazy
/// animation are made for the transform, so the function owns them and changes them without a
/// copy; the poster and held frames are the source's and are copied on write, never altered.
@Suite(.onOwnThreads) struct InPlaceFrameMappingTests {
    static let size = PixelSize(width: 12, height: 10)
    static let durations = [0.05, 0.1, 0.2, 0.15]

    static func frame(_ index: Int) -> Bitmap {
        TestImages.gradient(width: size.width, height: size.height, seed: UInt8(40 * index + 3))
    }

    static func address(_ bitmap: Bitmap) -> UInt {
        bitmap.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// Inverts the color channels.
    static func invert(_ bitmap: inout Bitmap) {
        bitmap.bytes.withUnsafeMutableBufferPointer { bytes in
            for offset in bytes.indices where offset % 4 != 3 { bytes[offset] = 255 - bytes[offset] }
        }
    }

    /// Records, call by call, whether the function's change left the pixels where they were.
    final class InPlaceRecorder: Sendable {
        private let state = Locked<[Bool]>([])
        func record(inPlace: Bool) { state.withLock { $0.append(inPlace) } }
        var results: [Bool] { state.withLock { $0 } }
    }

    @Test("a lazy animation's later frames are changed where they lie, its poster on a copy")
    func laterFramesAreOwned() throws {
        let (source, _) = try GeneratedFramesProvider.image(pixelSize: Self.size, durations: Self.durations) { Self.frame($0) }
        let recorder = InPlaceRecorder()
        let inverted = try source.mappingFramesInPlace(transformerKey: "invert") { bitmap in
            let before = Self.address(bitmap)
            Self.invert(&bitmap)
            recorder.record(inPlace: Self.address(bitmap) == before)
        }
        #expect(inverted.isLazilyAnimated && inverted.frameCount == 4)
        #expect(recorder.results == [false])  // the poster, now: the source's, so copied
        #expect(source.bitmap == Self.frame(0))  // and the source is unchanged
        for index in 1..<4 { _ = try inverted.frame(at: index, buffering: false) }
        #expect(recorder.results == [false, true, true, true])
    }

    @Test("in place and by value give the same image, lazy or held")
    func sameResultAsByValue() throws {
        let (lazy, _) = try GeneratedFramesProvider.image(pixelSize: Self.size, durations: Self.durations, loopCount: 3) { Self.frame($0) }
        let held = try WebImage(frames: Self.durations.indices.map { ImageFrame(bitmap: Self.frame($0), duration: Self.durations[$0]) }, loopCount: 3, format: .gif)
        for source in [lazy, held] {
            let inPlace = try source.mappingFramesInPlace(transformerKey: "invert") { Self.invert(&$0) }
            let byValue = try source.mappingFrames(transformerKey: "invert") { var copy = $0; Self.invert(&copy); return copy }
            #expect(inPlace.isLazilyAnimated == source.isLazilyAnimated)
            #expect(inPlace.frameDurations == byValue.frameDurations && inPlace.loopCount == 3)
            #expect(inPlace.metadata.contains(.transformed))
            for index in 0..<4 {
                #expect(try inPlace.frame(at: index).bitmap == byValue.frame(at: index).bitmap, "frame \(index)")
                #expect(try source.frame(at: index).bitmap == Self.frame(index), "source frame \(index) unchanged")
            }
        }
    }

    @Test("FlippingTransformer flips a lazy animation's later frames in place, and matches the held result")
    func flipInPlace() throws {
        let (lazy, _) = try GeneratedFramesProvider.image(pixelSize: Self.size, durations: Self.durations) { Self.frame($0) }
        let held = try WebImage(frames: Self.durations.indices.map { ImageFrame(bitmap: Self.frame($0), duration: Self.durations[$0]) }, format: .gif)
        let flip = FlippingTransformer(horizontal: true, vertical: true)
        let lazyFlipped = try flip.transform(lazy, forKey: "k")
        let heldFlipped = try flip.transform(held, forKey: "k")
        for index in 0..<4 {
            var expected = Self.frame(index)
            expected.flip(horizontal: true, vertical: true)
            #expect(try lazyFlipped.frame(at: index, buffering: false).bitmap == expected, "frame \(index)")
            #expect(try heldFlipped.frame(at: index).bitmap == expected, "frame \(index)")
        }
        #expect(lazy.bitmap == Self.frame(0))
    }

    @Test("an error other than WebImageError is wrapped in transformFailed naming the frame")
    func errorsAreWrapped() throws {
        struct Failure: Error {}
        let (lazy, _) = try GeneratedFramesProvider.image(pixelSize: Self.size, durations: Self.durations) { Self.frame($0) }
        let failing = try lazy.mappingFramesInPlace(transformerKey: "fails-later") { bitmap in
            if bitmap != Self.frame(0) { throw Failure() }
        }
        do {
            _ = try failing.frame(at: 2, buffering: false)
            Issue.record("frame 2 did not fail")
        } catch let error as WebImageError {
            #expect(error.code == .transformFailed)
            #expect(error.message.contains("fails-later failed on frame 2 of 4 (12x10)"), "\(error.message)")
        }
    }
}
