import Foundation

/// The frames of `source` with a per-frame function applied on demand: what a transformer
/// makes of a lazily decoded animation (``WebImage/mappingFramesInPlace(transformerKey:_:)``).
///
/// Frame 0 is made at creation (it is the poster, and a transformer that fails on every frame
/// fails there, at transform time); frame `n` is made when asked for, from the source's frame
/// `n` read straight from the source's frame provider (so nothing is buffered twice) and changed
/// where it lies: nothing else holds it unless the provider keeps a reference, so the function
/// may work in place without a copy. It keeps
/// that provider, not the source image: once the caller lets go of the source, the source's
/// poster (and any frames it buffered) is freed, and a decoder that shares its canvas with its
/// poster (GIF, APNG) no longer has to copy the canvas to draw the next frame. The
/// ``AnimatedImage`` over this provider keeps its own bounded buffer of made frames.
///
/// It has no encoded data: ``animatedImageData`` is empty, and ``WebImage/Storage/transformed(_:)``
/// tells caches to encode the frames rather than store the source's bytes.
struct FrameMappingProvider: AnimatedImageProvider {
    /// Where the source's frames come from: its ``AnimatedImage``'s provider, not the image,
    /// so that the source's poster is not kept alive by the result.
    let sourceFrames: any AnimatedImageProvider
    /// Names the function in error messages.
    let transformerKey: String
    /// The per-frame function, changing a frame in place.
    let body: @Sendable (inout Bitmap) throws -> Void
    /// Frame 0, mapped.
    let poster: Bitmap
    let durations: [Double]
    let statedDurations: [Double]

    /// - Throws: `body`'s error on frame 0; ``WebImageError/Code/invalidArgument`` when
    ///   `source`'s frames are not lazy (``WebImage/isLazilyAnimated``).
    init(source: WebImage, transformerKey: String, body: @escaping @Sendable (inout Bitmap) throws -> Void) throws {
        switch source.storage {
        case .animated(let animated), .transformed(let animated):
            self.sourceFrames = animated.provider
        case .frames:
            throw WebImageError(.invalidArgument, "\(transformerKey): only a lazily animated image has its frames mapped on demand")
        }
        self.transformerKey = transformerKey
        self.body = body
        self.durations = source.frameDurations
        self.statedDurations = source.statedFrameDurations
        var poster = source.bitmap  // the source's too: the first change copies it
        try Self.apply(body, to: &poster, index: 0, of: source.frameCount, transformerKey: transformerKey)
        self.poster = poster
    }

    /// The bytes the source's frame provider holds for this image: its encoded data, or for a
    /// transformed source its mapped poster and what its own source holds.
    var sourceBytes: Int {
        if let inner = sourceFrames as? FrameMappingProvider {
            return inner.poster.byteCount + inner.sourceBytes
        }
        return sourceFrames.animatedImageData.count
    }

    var animatedImageData: Data { Data() }
    var format: ImageFormat { sourceFrames.format }
    var pixelSize: PixelSize { poster.size }
    var frameCount: Int { sourceFrames.frameCount }
    var loopCount: Int? { sourceFrames.loopCount }

    func duration(at index: Int) -> Double { durations[index] }
    func statedDuration(at index: Int) -> Double { statedDurations[index] }

    func frame(at index: Int) throws -> Bitmap {
        if index == 0 { return poster }
        var output = try sourceFrames.frame(at: index)  // made for this call: changed where it lies
        try Self.apply(body, to: &output, index: index, of: frameCount, transformerKey: transformerKey)
        guard output.size == poster.size else {
            throw WebImageError(.transformFailed, "\(transformerKey) made frame \(index) of \(frameCount) \(output.size), frame 0 \(poster.size): every frame must have one size")
        }
        return output
    }

    /// `body(&bitmap)`: a ``WebImageError`` and a `CancellationError` (a cancelled job stopping,
    /// see ``BlockingWorkExecutor/isCurrentJobCancelled``) pass through, any other error is
    /// wrapped in ``WebImageError/Code/transformFailed`` naming `transformerKey` and the frame.
    static func apply(_ body: (inout Bitmap) throws -> Void, to bitmap: inout Bitmap, index: Int, of count: Int, transformerKey: String) throws {
        let size = bitmap.size
        do {
            try body(&bitmap)
        } catch let error as WebImageError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw WebImageError(.transformFailed, "\(transformerKey) failed on frame \(index) of \(count) (\(size))", underlyingError: error)
        }
    }
}
