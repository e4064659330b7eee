public import WebImageCore

extension WebImageCache {
    /// The memory tier's image for `key` (what a plain query answers from memory).
    public func memoryHit(forKey key: String) -> WebImage? {
        memoryCache.image(forKey: key)
    }

    /// What ``queryImage(forKey:options:context:cacheType:)`` would answer, when it can be had
    /// on the calling thread (SDWebImage's `SDImageCache` synchronous paths):
    /// - a memory hit, unless `queryMemoryData` wants its data from disk too;
    /// - with `queryMemoryData` and `queryMemoryDataSync`: the memory hit and its data, read
    ///   from disk now;
    /// - on a memory miss, with `queryDiskDataSync`: the disk entry read and decoded now
    ///   (promoted to memory), or a miss;
    /// - ``/WebImageCore/ImmediateCacheAnswer/unknown`` when the answer needs the disk and no `...Sync`
    ///   option allows reading it here.
    public func queryImageImmediately(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> ImmediateCacheAnswer {
        guard cacheType != .none else { return .miss }
        let memoryImage = cacheType.includesMemory ? shapedMemoryImage(forKey: key, options: options) : nil
        if let memoryImage, !options.contains(.queryMemoryData) || !cacheType.includesDisk {
            return .hit(ImageCacheResult(image: memoryImage, cacheType: .memory))
        }
        guard cacheType.includesDisk else { return .miss }
        let sync = memoryImage != nil ? options.contains(.queryMemoryDataSync) : options.contains(.queryDiskDataSync)
        guard sync else { return .unknown }
        return diskPhase(forKey: key, memoryImage: memoryImage, options: options, context: context).map { .hit($0) } ?? .miss
    }
}
