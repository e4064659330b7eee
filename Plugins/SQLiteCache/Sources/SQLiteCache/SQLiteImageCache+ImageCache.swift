public import Foundation
public import SwiftWebImage

/// ``SQLiteImageCache`` as an ``ImageCache``: memory and SQLite behind the protocol, with the
/// query options of SDWebImage's `SDImageCache`. Every call is the inner `WebImageCache`'s (see
/// ``SQLiteImageCache``). A read problem is a miss; only `store` throws.
extension SQLiteImageCache: ImageCache {
    /// Looks `key` up in memory, then in SQLite.
    ///
    /// - `cacheType` `.memory`: memory only. `.disk`: SQLite only. `.all`: memory, then SQLite.
    /// - A memory hit returns at once (``/WebImageCore/ImageCacheType/memory``) unless `queryMemoryData` asks
    ///   for its data as well (read on the calling task with `queryMemoryDataSync`).
    /// - A SQLite hit (``/WebImageCore/ImageCacheType/disk``) carries the data and the decoded image, which is
    ///   promoted to memory; with `avoidDecodeImage`, the data only. Read and decoded on the
    ///   core's bounded executors, or on the calling task with `queryDiskDataSync`.
    /// - Decision: while the config leaves memory out, the memory tier is not read either
    ///   (images put there before, or directly, are not hits); every hit comes from SQLite.
    /// - A cancelled task gets `nil`.
    public func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        let tiers = config.shouldCacheImagesInMemory ? cacheType : Self.withoutMemory(cacheType)
        return await core.queryImage(forKey: key, options: options, context: context, cacheType: tiers)
    }

    /// Stores `image` in memory and `data` in SQLite, as `cacheType` says.
    ///
    /// - Memory: the image, when the config keeps images in memory. Data alone is decoded for
    ///   memory only when SQLite is not stored too (the next SQLite hit is promoted).
    /// - SQLite: `data`, or the image encoded (see ``SQLiteImageCache``), with the image's
    ///   ``/WebImageCore/WebImage/extendedData``. Encoding and writing run on the core's bounded executors.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` when both are `nil`;
    ///   ``/WebImageCore/WebImageError/Code/cacheFailure`` when the write fails or the image cannot be encoded
    ///   (the memory tier has stored the image by then, and the message says so);
    ///   ``/WebImageCore/WebImageError/Code/badImageData`` when data stored for memory alone does not decode.
    ///   The messages are the inner `WebImageCache`'s (they name it) or the database's.
    public func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        try await core.store(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)
    }

    /// Starts a store: the image is in memory when this returns; the rest writes SQLite (the
    /// inner `WebImageCache`'s ``/WebImageCaches/WebImageCache/beginStore(_:data:forKey:options:context:cacheType:)``).
    public func beginStore(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) -> @Sendable () async throws -> Void {
        core.beginStore(image, data: data, forKey: key, options: options, context: context, cacheType: cacheType)
    }

    /// Removes `key` from the tiers `cacheType` names (SQLite work on the core's bounded executors).
    public func removeImage(forKey key: String, cacheType: ImageCacheType) async {
        await core.removeImage(forKey: key, cacheType: cacheType)
    }

    /// The first tier that holds `key`: `.memory` when memory does (SQLite is not asked), else
    /// `.disk` when SQLite does, else `.none` (never `.all`, as SDWebImage).
    public func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        await core.containsImage(forKey: key, cacheType: cacheType)
    }

    /// Empties the tiers `cacheType` names (SQLite work on the core's bounded executors).
    public func clear(cacheType: ImageCacheType) async {
        await core.clear(cacheType: cacheType)
    }

    /// `cacheType` with the memory tier taken out.
    static func withoutMemory(_ cacheType: ImageCacheType) -> ImageCacheType {
        cacheType.includesDisk ? .disk : .none
    }
}
