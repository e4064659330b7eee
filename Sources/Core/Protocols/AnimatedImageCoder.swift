public import Foundation

/// A coder that can back an animated image lazily: it parses the data once and decodes
/// frames on demand (SDWebImage's `SDAnimatedImageCoder`).
public protocol AnimatedImageCoder: ImageCoder {
    /// Parses `data` (headers only, no pixel decoding beyond what the format needs) and returns
    /// a provider that decodes frames on demand.
    /// - Throws: ``WebImageError/Code/badImageData`` if the data is not an image this coder reads.
    func makeAnimatedImageProvider(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageProvider
}

/// Random access to the frames of one animated image (SDWebImage's `SDAnimatedImageProvider`).
///
/// `frame(at:)` returns the frame composited onto the full canvas (disposal and blending
/// applied) at ``pixelSize``; a provider that needs earlier frames to build a later one keeps
/// what it needs itself. Implementations must be safe to call from any thread.
public protocol AnimatedImageProvider: Sendable {
    /// The encoded data the frames come from.
    var animatedImageData: Data { get }
    /// The format of that data.
    var format: ImageFormat { get }
    /// The canvas size of every frame, after any thumbnail scaling the options asked for.
    var pixelSize: PixelSize { get }
    /// The number of frames (>= 1).
    var frameCount: Int { get }
    /// How many times the animation plays: 0 = forever, `nil` = the file states none.
    var loopCount: Int? { get }
    /// How long frame `index` shows, in seconds.
    func duration(at index: Int) -> Double
    /// The delay the data states for frame `index`, in seconds, before any playback rule the
    /// provider applies in ``duration(at:)`` (such as GIF's "10 ms or less plays for 100 ms").
    /// The default implementation returns ``duration(at:)``: a provider that plays every
    /// delay as stated needs nothing more.
    func statedDuration(at index: Int) -> Double
    /// Decodes frame `index`.
    /// - Throws: ``WebImageError/Code/invalidArgument`` for an index out of range,
    ///   ``WebImageError/Code/badImageData`` for corrupt frame data.
    func frame(at index: Int) throws -> Bitmap
}

extension AnimatedImageProvider {
    /// ``duration(at:)``: the provider plays each delay as the data states it.
    public func statedDuration(at index: Int) -> Double {
        duration(at: index)
    }
}
