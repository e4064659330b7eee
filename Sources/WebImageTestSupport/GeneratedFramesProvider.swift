public import Foundation
public import WebImageCore

/// An ``/WebImageCore/AnimatedImageProvider`` whose frame `n` is made by a closure when asked
/// for, and which counts the calls: a lazy animation of any size for tests, without encoded
/// data (its ``animatedImageData`` is empty).
///
/// Thread-safety: the counters sit in a `Locked`; `make` must be safe to call from any thread.
public final class GeneratedFramesProvider: AnimatedImageProvider {
    /// Empty: the frames are made, not decoded.
    public let animatedImageData = Data()
    /// The format the frames claim.
    public let format: ImageFormat
    /// The size of every frame.
    public let pixelSize: PixelSize
    /// The number of frames.
    public let frameCount: Int
    /// The loop count.
    public let loopCount: Int?
    private let durations: [Double]
    private let make: @Sendable (Int) throws -> Bitmap
    private let calls = Locked<[Int]>([])

    /// A provider whose frame `n` is `make(n)`.
    /// - Parameters:
    ///   - pixelSize: The canvas size of every frame.
    ///   - durations: One per frame (its count is the frame count).
    ///   - loopCount: The loop count (0: forever; `nil`: the file states none).
    ///   - format: The format the provider claims.
    ///   - make: Frame `n`; it must be `pixelSize`.
    public init(pixelSize: PixelSize, durations: [Double], loopCount: Int? = 0, format: ImageFormat = .gif, make: @escaping @Sendable (Int) throws -> Bitmap) {
        self.pixelSize = pixelSize
        self.durations = durations
        self.frameCount = durations.count
        self.loopCount = loopCount
        self.format = format
        self.make = make
    }

    /// `durations[index]`.
    public func duration(at index: Int) -> Double { durations[index] }

    /// `make(index)`, counted.
    public func frame(at index: Int) throws -> Bitmap {
        calls.withLock { $0.append(index) }
        return try make(index)
    }

    /// The indices asked for so far, in order.
    public var requestedFrames: [Int] { calls.withLock { $0 } }

    /// A lazily animated image over a new provider (frame 0 is made now, as ``/WebImageCore/AnimatedImage`` does).
    public static func image(pixelSize: PixelSize, durations: [Double], loopCount: Int? = 0, format: ImageFormat = .gif, make: @escaping @Sendable (Int) throws -> Bitmap) throws -> (WebImage, GeneratedFramesProvider) {
        let provider = GeneratedFramesProvider(pixelSize: pixelSize, durations: durations, loopCount: loopCount, format: format, make: make)
        return (WebImage(animatedImage: try AnimatedImage(provider: provider)), provider)
    }
}
