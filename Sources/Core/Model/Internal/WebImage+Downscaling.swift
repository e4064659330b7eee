extension WebImage {
    /// This image resampled to `size` (Lanczos-3), every frame of an animation included with
    /// its duration, stated duration and the loop count; marked ``ImageMetadata/thumbnail``.
    /// The result holds every resampled frame; a lazily animated source is read one frame at a
    /// time without filling its buffer, so only one full-size frame is decoded at once.
    /// - Throws: ``WebImageError/Code/invalidArgument`` for an empty size; the animated
    ///   provider's decoding error.
    func downscaled(to size: PixelSize) throws -> WebImage {
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        for index in 0..<frameCount {
            var frame = try self.frame(at: index, buffering: false)
            frame.bitmap = try frame.bitmap.resampled(to: size, filter: .lanczos3)
            frames.append(frame)
        }
        var result = try WebImage(frames: frames, loopCount: loopCount, scale: scale, format: format, metadata: metadata.union(.thumbnail))
        result.extras = extras
        return result
    }
}
