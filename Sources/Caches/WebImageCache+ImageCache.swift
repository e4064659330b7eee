public import Foundation
public import WebImageCore

/// ``WebImageCache`` as an ``ImageCache``: the two tiers behind the protocol, with every query
/// option of SDWebImage's `SDImageCache`.
extension WebImageCache: ImageCache {
    /// Looks `key` up in memory, then on disk.
    ///
    /// - `cacheType` `.memory`: memory only. `.disk`: disk only. `.all`: memory, then disk.
    /// - A memory hit returns at once (``/WebImageCore/ImageCacheType/memory``) unless `queryMemoryData` asks
    ///   for its data from disk as well (read on the calling task with `queryMemoryDataSync`).
    /// - A disk hit (``/WebImageCore/ImageCacheType/disk``) carries the data and the decoded image, which is
    ///   promoted to memory (not when a thumbnail size or scale-down budget decoded it smaller
    ///   than the data); with `avoidDecodeImage` it carries the data only and nothing is
    ///   decoded. Read on ``/WebImageCore/BlockingWorkExecutor/fileIO`` and decoded through the decode stage
    ///   (``/WebImageCore/ImageDecodeRequest``) on ``/WebImageCore/BlockingWorkExecutor/processing``, chained
    ///   (``/WebImageCore/BlockingWorkExecutor/run(steps:)``): the calling task is resumed once,
    ///   and with a free processing slot the thread that read the file decodes it. Or both on
    ///   the calling task with `queryDiskDataSync`. Bad data is removed; data that is only unusable for
    ///   this request (too large, no coder yet) is kept.
    /// - `decodeFirstFrameOnly` makes an animated hit still; `matchAnimatedImageClass` makes a
    ///   memory hit whose frames are held the other way (lazy vs preloaded) a miss.
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
            : await diskPhaseInBackground(forKey: key, memoryImage: memoryImage, options: options, context: context)
        return Task.isCancelled ? nil : result
    }

    /// Stores `image` in memory and `data` on disk, as `cacheType` says.
    ///
    /// - Memory: the image, when the config keeps images in memory; written before the first
    ///   suspension (see ``beginStore(_:data:forKey:options:context:cacheType:)``). Data alone
    ///   is not decoded for memory when the disk tier is stored too (the next disk hit is
    ///   promoted); with `cacheType` `.memory` alone, data alone is decoded and the image kept.
    /// - Disk: `data`, or the image encoded (see ``WebImageCache``), with the image's extended
    ///   data. Encoding runs on ``/WebImageCore/BlockingWorkExecutor/processing``, writing on
    ///   ``/WebImageCore/BlockingWorkExecutor/fileIO``; both run even if the calling task is cancelled.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` when both are `nil`;
    ///   ``/WebImageCore/WebImageError/Code/cacheFailure`` when the disk write fails or the image cannot be
    ///   encoded (the memory tier has stored the image by then, and the message says so);
    ///   ``/WebImageCore/WebImageError/Code/badImageData`` when data stored for memory alone does not decode.
    public func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        try await beginStore(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)()
    }

    /// Starts a store: the image is in the memory tier when this returns (SDWebImage's
    /// `storeImage:...completion:`); the rest decodes data stored for memory alone, or encodes
    /// and writes the disk tier, as ``store(_:data:forKey:options:context:cacheType:)`` says.
    /// Does no I/O and no decoding before it returns.
    /// - Returns: The rest of the store, which throws the errors `store` documents.
    public func beginStore(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> @Sendable () async throws -> Void {
        guard cacheType != .none else { return {} }
        guard image != nil || data != nil else {
            let error = WebImageError(.invalidArgument, "WebImageCache.store for key \(DiskCache.describe(key)) got neither an image nor data")
            return { throw error }
        }
        let keepsInMemory = cacheType.includesMemory && config.shouldCacheImagesInMemory
        var storedInMemory = false
        if keepsInMemory, let image {
            storedInMemory = memoryCache.setImage(image, forKey: key)
        }
        let inMemory = storedInMemory
        return {
            if keepsInMemory, image == nil, let data, !cacheType.includesDisk {
                try await self.decodeForMemory(data, forKey: key, options: options, context: context)
            }
            guard cacheType.includesDisk else { return }
            try await self.storeOnDisk(image, data: data, forKey: key, context: context, storedInMemory: inMemory)
        }
    }

    /// Decodes data stored for memory alone and keeps the image in memory.
    /// - Throws: ``WebImageError/Code/badImageData`` when the data does not decode.
    private func decodeForMemory(_ data: Data, forKey key: String, options: WebImageOptions, context: WebImageContext) async throws {
        let stage = decodeRequest(forKey: key, options: options.subtracting(.avoidDecodeImage), context: context)
        let decodedImage: WebImage?
        do {
            decodedImage = try await stage.decodeLoadedData(data, on: .processing)
        } catch {
            throw WebImageError(.badImageData, "WebImageCache could not decode \(data.count) bytes stored for memory under key \(DiskCache.describe(key)): \(error)", underlyingError: error as? WebImageError)
        }
        if let decodedImage { memoryCache.setImage(decodedImage, forKey: key) }
    }

    /// The disk part of a store: `data`, or the image encoded, with the image's extended data.
    /// - Parameter storedInMemory: Whether the memory tier took the image (for the messages).
    private func storeOnDisk(_ image: WebImage?, data: Data?, forKey key: String, context: WebImageContext, storedInMemory: Bool) async throws {
        let bytes: Data
        if let data {
            bytes = data
        } else if let image {
            do {
                bytes = try await BlockingWorkExecutor.processing.runUncancellable { try self.encodedData(for: image, context: context) }
            } catch {
                let outcome = storedInMemory ? "was stored in memory only" : "was not stored"
                throw WebImageError(.cacheFailure, "WebImageCache: the image for key \(DiskCache.describe(key)) \(outcome): it has no data and could not be encoded for the disk: \(error)", underlyingError: error as? WebImageError)
            }
        } else {
            return
        }
        try await ioExecutor.runUncancellable {
            do {
                try self.diskStorage.setData(bytes, forKey: key, extendedData: image?.extendedData)
            } catch let error as WebImageError {
                var reported = error
                if storedInMemory { reported.message += " (the image was stored in memory)" }
                throw reported
            }
        }
    }

    /// Removes `key` from the tiers `cacheType` names (disk work on ``/WebImageCore/BlockingWorkExecutor/fileIO``).
    public func removeImage(forKey key: String, cacheType: ImageCacheType) async {
        if cacheType.includesMemory { memoryCache.removeEntry(forKey: key) }
        if cacheType.includesDisk { await ioExecutor.runUncancellable { self.diskStorage.removeData(forKey: key) } }
    }

    /// The first tier, in query order, that holds `key` (SDWebImage's
    /// `containsImageForKey:cacheType:completion:`): ``/WebImageCore/ImageCacheType/memory`` when memory
    /// holds it, answered at once without asking the disk; else ``/WebImageCore/ImageCacheType/disk`` when
    /// the disk does (checked on ``/WebImageCore/BlockingWorkExecutor/fileIO``); else `.none`. Never `.all`.
    ///
    /// Decision: the answer is one tier read at one moment, as in SDWebImage. Checking both
    /// tiers for `.all` made the answer wait for the disk, and mixed two moments: with a store
    /// running, memory was read before the store reached it and the disk after, so the answer
    /// was `.disk` although memory held the image by then.
    public func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        if cacheType.includesMemory, memoryCache.contains(key) { return .memory }
        guard cacheType.includesDisk else { return .none }
        return await ioExecutor.runUncancellable { self.diskStorage.containsData(forKey: key) } ? .disk : .none
    }

    /// Empties the tiers `cacheType` names (disk work on ``/WebImageCore/BlockingWorkExecutor/fileIO``).
    public func clear(cacheType: ImageCacheType) async {
        if cacheType.includesMemory { memoryCache.removeAll() }
        if cacheType.includesDisk { await ioExecutor.runUncancellable { self.diskStorage.removeAll() } }
    }
}
