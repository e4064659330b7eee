extension WebImage {
    /// This image resampled to `size` (Lanczos-3), every frame of an animation included with
    /// its duration, stated duration and the loop count; marked ``ImageMetadata/thumbnail``.
    /// A lazily animated image comes back with its frames decoded and held.
    /// - Throws: ``WebImageError/Code/invalidArgument`` for an empty size; the animated
    ///   provider's decoding error.
    func downscaled(to size: PixelSize) throws -> WebImage {
        var frames = try allFrames()
        for index in frames.indices {
            frames[index].bitmap = try frames[index].bitmap.resampled(to: size, filter: .lanczos3)
        }
        var result = try WebImage(frames: frames, loopCount: loopCount, scale: scale, format: format, metadata: metadata.union(.thumbnail))
        result.extendedData = extendedData
        return result
    }
}
