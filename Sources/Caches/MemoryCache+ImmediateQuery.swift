public import WebImageCore

extension MemoryCache {
    /// The answer of ``queryImage(forKey:options:context:cacheType:)``, always at once (a
    /// memory cache never waits): the hit, or a miss.
    public func queryImageImmediately(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> ImmediateCacheAnswer {
        guard cacheType.includesMemory, let entry = entry(forKey: key) else { return .miss }
        var image = entry.image
        if options.contains(.decodeFirstFrameOnly), let animated = image, animated.isAnimated {
            image = animated.firstFrameOnly
        }
        return .hit(ImageCacheResult(image: image, data: entry.data, cacheType: .memory))
    }
}
