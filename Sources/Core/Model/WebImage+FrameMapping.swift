extension WebImage {
    /// A copy of this image with `body` applied to every frame: the same frame count,
    /// durations (stated durations too), loop count, scale, format, metadata (plus
    /// ``ImageMetadata/transformed``), extended data and colour profile. Transformers that work frame by frame
    /// are built on it.
    ///
    /// Memory: a lazily decoded animation (``isLazilyAnimated``) gives a lazily transformed one
    /// (``Storage/transformed(_:)``): frame 0 is transformed now, frame `n` when it is asked for,
    /// from the source's frame `n`, and kept in a bounded buffer
    /// (``AnimatedImage/defaultMaxBufferBytes``). So decoding, transforming and re-encoding an
    /// animation holds a few frames at a time, never all of them; the result keeps the source's
    /// frame provider (and its encoded data) alive, not the source image with its poster. An
    /// image whose frames are all held (a still image, or an animation decoded with
    /// `preloadAllFrames`) is transformed now, every frame held.
    ///
    /// Errors: a ``WebImageError`` thrown by `body` passes through; any other error is wrapped
    /// in ``WebImageError/Code/transformFailed`` naming `transformerKey` and the frame. For a lazy
    /// result, errors on frames after the first come when that frame is read (by a display or
    /// an encoder), as decoding errors of a lazy animation do; so does a frame whose size
    /// differs from frame 0's.
    /// - Throws: `body`'s error on frame 0 (on any frame for held frames);
    ///   ``WebImageError/Code/transformFailed`` when held frames come out in different sizes.
    public func mappingFrames(transformerKey: String, _ body: @escaping @Sendable (Bitmap) throws -> Bitmap) throws -> WebImage {
        try mappingFramesInPlace(transformerKey: transformerKey) { bitmap in bitmap = try body(bitmap) }
    }

    /// A copy of this image with `body` applied to every frame where it lies: as
    /// ``mappingFrames(transformerKey:_:)`` (the same result, laziness and errors), for a
    /// function that changes a bitmap in place, such as ``Bitmap``'s flip.
    ///
    /// Memory: frame `n > 0` of a lazily decoded animation is made for this call (read from the
    /// source's frame provider, and handed over by it when it keeps no reference, as the built-in
    /// GIF and APNG providers do with a frame no later frame is drawn on), so `body` owns it and
    /// a change in place copies nothing. Frame 0 and held frames are also the source's: the first
    /// change copies them on write, so `body` never alters the source image.
    /// - Throws: As ``mappingFrames(transformerKey:_:)``.
    public func mappingFramesInPlace(transformerKey: String, _ body: @escaping @Sendable (inout Bitmap) throws -> Void) throws -> WebImage {
        let count = frameCount
        var result: WebImage
        if isLazilyAnimated, count > 1 {
            let provider = try FrameMappingProvider(source: self, transformerKey: transformerKey, body: body)
            result = WebImage(transformedFrames: try AnimatedImage(provider: provider), scale: scale, format: format, metadata: metadata.union(.transformed))
        } else {
            var frames: [ImageFrame] = []
            frames.reserveCapacity(count)
            for index in 0..<count {
                var frame = try self.frame(at: index)  // keeps the duration and the stated duration
                try FrameMappingProvider.apply(body, to: &frame.bitmap, index: index, of: count, transformerKey: transformerKey)
                frames.append(frame)
            }
            do {
                result = try WebImage(frames: frames, loopCount: loopCount, scale: scale, format: format, metadata: metadata.union(.transformed))
            } catch {
                throw WebImageError(.transformFailed, "\(transformerKey) produced frames of different sizes from a \(pixelSize) image", underlyingError: error)
            }
        }
        result.extras = extras
        return result
    }
}
