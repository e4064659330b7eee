public import Foundation
public import SwiftWebImage

/// ``SQLiteImageCache`` as an ``ImageCache``: memory and SQLite behind the protocol, with the
/// query options of SDWebImage's `SDImageCache`. A read problem is a miss; only `store` throws.
extension SQLiteImageCache: ImageCache {
    /// Looks `key` up in memory, then in SQLite.
    ///
    /// - `cacheType` `.memory`: memory only. `.disk`: SQLite only. `.all`: memory, then SQLite.
    /// - A memory hit returns at once (``ImageCacheType/memory``) unless `queryMemoryData` asks
    ///   for its data as well (read on the calling task with `queryMemoryDataSync`).
    /// - A SQLite hit (``ImageCacheType/disk``) carries the data and the decoded image, which is
    ///   promoted to memory; with `avoidDecodeImage`, the data only. Read and decoded on the
    ///   cache's queue, or on the calling task with `queryDiskDataSync`.
    /// - A cancelled task gets `nil`.
    public func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        guard cacheType != .none, !Task.isCancelled else { return nil }
        let memoryImage = cacheType.includesMemory ? shapedMemoryImage(forKey: key, options: options) : nil
        if let memoryImage, !options.contains(.queryMemoryData) || !cacheType.includesDisk {
            return ImageCacheResult(image: memoryImage, cacheType: .memory)
        }
        guard cacheType.includesDisk else { return nil }
        let sync = memoryImage != nil ? options.contains(.queryMemoryDataSync) : options.contains(.queryDiskDataSync)
        let result = sync
            ? diskPhase(forKey: key, memoryImage: memoryImage, options: options, context: context)
            : await queue.run { self.diskPhase(forKey: key, memoryImage: memoryImage, options: options, context: context) }
        return Task.isCancelled ? nil : result
    }

    /// Stores `image` in memory and `data` in SQLite, as `cacheType` says.
    ///
    /// - Memory: the image, when the config keeps images in memory. Data alone is decoded for
    ///   memory only when SQLite is not stored too (the next SQLite hit is promoted).
    /// - SQLite: `data`, or the image encoded (see ``SQLiteImageCache``), with the image's
    ///   ``WebImage/extendedData``. Encoding and writing run on the cache's queue.
    /// - Throws: ``WebImageError/Code/invalidArgument`` when both are `nil`;
    ///   ``WebImageError/Code/cacheFailure`` when the write fails or the image cannot be encoded
    ///   (the memory tier has stored the image by then, and the message says so);
    ///   ``WebImageError/Code/badImageData`` when data stored for memory alone does not decode.
    public func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        guard cacheType != .none else { return }
        guard image != nil || data != nil else {
            throw WebImageError(.invalidArgument, "SQLiteImageCache.store for key \(SQLiteDiskCache.describe(key)) got neither an image nor data")
        }
        var inMemory = false
        if cacheType.includesMemory, config.shouldCacheImagesInMemory {
            if let image {
                inMemory = memoryCache.setImage(image, forKey: key)
            } else if let data, !cacheType.includesDisk {
                let decoded = await queue.run { () -> Result<WebImage, any Error> in
                    let coder = context.imageCoder ?? self.coder
                    return Result { try coder.decode(data, options: ImageDecodeOptions(options: options, context: context, cacheKey: key)) }
                }
                do {
                    memoryCache.setImage(try decoded.get(), forKey: key)
                } catch {
                    throw WebImageError(.badImageData, "SQLiteImageCache could not decode \(data.count) bytes stored for memory under key \(SQLiteDiskCache.describe(key)): \(error)", underlyingError: error as? WebImageError)
                }
            }
        }
        guard cacheType.includesDisk else { return }
        let storedInMemory = inMemory
        try await queue.run {
            let bytes: Data
            if let data {
                bytes = data
            } else if let image {
                do {
                    bytes = try self.encodedData(for: image, context: context)
                } catch {
                    let outcome = storedInMemory ? "was stored in memory only" : "was not stored"
                    throw WebImageError(.cacheFailure, "SQLiteImageCache: the image for key \(SQLiteDiskCache.describe(key)) \(outcome): it has no data and could not be encoded: \(error)", underlyingError: error as? WebImageError)
                }
            } else {
                return
            }
            do {
                try self.diskCache.setData(bytes, forKey: key, extendedData: image?.extendedData)
            } catch var error as WebImageError {
                if storedInMemory { error.message += " (the image was stored in memory)" }
                throw error
            }
        }
    }

    /// Removes `key` from the tiers `cacheType` names (SQLite work on the cache's queue).
    public func removeImage(forKey key: String, cacheType: ImageCacheType) async {
        if cacheType.includesMemory { memoryCache.removeEntry(forKey: key) }
        if cacheType.includesDisk { await queue.run { self.diskCache.removeData(forKey: key) } }
    }

    /// Which tiers hold `key`: `.all` when both do.
    public func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        let inMemory = cacheType.includesMemory && memoryCache.contains(key)
        let onDisk = cacheType.includesDisk ? await queue.run { self.diskCache.containsData(forKey: key) } : false
        switch (inMemory, onDisk) {
        case (true, true): return .all
        case (true, false): return .memory
        case (false, true): return .disk
        case (false, false): return .none
        }
    }

    /// Empties the tiers `cacheType` names (SQLite work on the cache's queue).
    public func clear(cacheType: ImageCacheType) async {
        if cacheType.includesMemory { memoryCache.removeAll() }
        if cacheType.includesDisk { await queue.run { self.diskCache.removeAll() } }
    }
}
