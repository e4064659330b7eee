import Foundation

/// The frames of `source` with a per-frame function applied on demand: what a transformer
/// makes of a lazily decoded animation (``WebImage/mappingFrames(transformerKey:_:)``).
///
/// Frame 0 is made at creation (it is the poster, and a transformer that fails on every frame
/// fails there, at transform time); frame `n` is made when asked for, from the source's frame
/// `n` read without buffering, so the source's buffer does not fill up as well. The
/// ``AnimatedImage`` over this provider keeps its own bounded buffer of made frames.
///
/// It has no encoded data: ``animatedImageData`` is empty, and ``WebImage/Storage/transformed(_:)``
/// tells caches to encode the frames rather than store the source's bytes.
struct FrameMappingProvider: AnimatedImageProvider {
    /// The image whose frames are mapped.
    let source: WebImage
    /// Names the function in error messages.
    let transformerKey: String
    /// The per-frame function.
    let body: @Sendable (Bitmap) throws -> Bitmap
    /// Frame 0, mapped.
    let poster: Bitmap
    let durations: [Double]
    let statedDurations: [Double]

    init(source: WebImage, transformerKey: String, body: @escaping @Sendable (Bitmap) throws -> Bitmap) throws {
        self.source = source
        self.transformerKey = transformerKey
        self.body = body
        self.durations = source.frameDurations
        self.statedDurations = source.statedFrameDurations
        self.poster = try Self.apply(body, to: source.bitmap, index: 0, of: source.frameCount, transformerKey: transformerKey)
    }

    var animatedImageData: Data { Data() }
    var format: ImageFormat { source.format }
    var pixelSize: PixelSize { poster.size }
    var frameCount: Int { source.frameCount }
    var loopCount: Int? { source.loopCount }

    func duration(at index: Int) -> Double { durations[index] }
    func statedDuration(at index: Int) -> Double { statedDurations[index] }

    func frame(at index: Int) throws -> Bitmap {
        if index == 0 { return poster }
        let input = try source.frame(at: index, buffering: false).bitmap
        let output = try Self.apply(body, to: input, index: index, of: frameCount, transformerKey: transformerKey)
        guard output.size == poster.size else {
            throw WebImageError(.transformFailed, "\(transformerKey) made frame \(index) of \(frameCount) \(output.size), frame 0 \(poster.size): every frame must have one size")
        }
        return output
    }

    /// `body(bitmap)`: a ``WebImageError`` passes through, any other error is wrapped in
    /// ``WebImageError/Code/transformFailed`` naming `transformerKey` and the frame.
    static func apply(_ body: (Bitmap) throws -> Bitmap, to bitmap: Bitmap, index: Int, of count: Int, transformerKey: String) throws -> Bitmap {
        do {
            return try body(bitmap)
        } catch let error as WebImageError {
            throw error
        } catch {
            throw WebImageError(.transformFailed, "\(transformerKey) failed on frame \(index) of \(count) (\(bitmap.size))", underlyingError: error)
        }
    }
}
