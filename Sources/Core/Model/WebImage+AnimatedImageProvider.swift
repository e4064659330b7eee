extension WebImage {
    /// An image over the frames of `provider`: every frame decoded now when `preloadAllFrames`
    /// (the `preloadAllFrames` option), else decoded on demand through an ``AnimatedImage``.
    /// Coders of animated formats end their decode with this.
    /// - Throws: The provider's decoding error.
    public init(provider: any AnimatedImageProvider, preloadAllFrames: Bool, scale: Double = 1, metadata: ImageMetadata = .decoded) throws {
        if preloadAllFrames {
            let frames = try (0..<provider.frameCount).map { index in
                ImageFrame(bitmap: try provider.frame(at: index), duration: provider.duration(at: index),
                           statedDuration: provider.statedDuration(at: index))
            }
            try self.init(frames: frames, loopCount: provider.loopCount, scale: scale, format: provider.format, metadata: metadata)
        } else {
            self.init(animatedImage: try AnimatedImage(provider: provider), scale: scale, metadata: metadata)
        }
    }
}
