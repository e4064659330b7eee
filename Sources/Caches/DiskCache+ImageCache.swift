public import Foundation
public import WebImageCore

/// ``DiskCache`` as a one-tier ``ImageCache`` of data: it serves the disk tier and ignores the
/// memory tier. File work runs on ``BlockingWorkExecutor/fileIO`` (or on the calling task with
/// `queryDiskDataSync`).
///
/// Decisions: a hit carries the data and no image (decoding is ``WebImageCache``'s job); a
/// store needs data (an image alone is refused, since this tier has no coder) and keeps the
/// image's ``WebImage/extendedData`` as the entry's extended data.
extension DiskCache: ImageCache {
    /// The data stored under `key` when `cacheType` includes disk, as a
    /// ``/WebImageCore/ImageCacheType/disk`` hit with no image.
    public func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        guard cacheType.includesDisk, !Task.isCancelled else { return nil }
        let data = options.contains(.queryDiskDataSync)
            ? self.data(forKey: key)
            : try? await BlockingWorkExecutor.fileIO.run { self.data(forKey: key) }
        guard let data, !Task.isCancelled else { return nil }
        return ImageCacheResult(image: nil, data: data, cacheType: .disk)
    }

    /// Stores `data` (with the image's extended data) when `cacheType` includes disk.
    /// - Throws: ``/WebImageCore/WebImageError/Code/invalidArgument`` when `data` is `nil`;
    ///   ``/WebImageCore/WebImageError/Code/cacheFailure`` when the write fails.
    public func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        guard cacheType.includesDisk else { return }
        guard let data else {
            throw WebImageError(.invalidArgument, "DiskCache stores encoded data and got none for key \(Self.describe(key)); use WebImageCache to encode images")
        }
        let extendedData = image?.extendedData
        try await BlockingWorkExecutor.fileIO.runUncancellable { try self.setData(data, forKey: key, extendedData: extendedData) }
    }

    /// Removes the entry for `key` when `cacheType` includes disk (on ``/WebImageCore/BlockingWorkExecutor/fileIO``).
    public func removeImage(forKey key: String, cacheType: ImageCacheType) async {
        guard cacheType.includesDisk else { return }
        await BlockingWorkExecutor.fileIO.runUncancellable { self.removeData(forKey: key) }
    }

    /// ``/WebImageCore/ImageCacheType/disk`` when `cacheType` includes disk and an entry exists, else `.none`.
    public func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        guard cacheType.includesDisk else { return .none }
        return await BlockingWorkExecutor.fileIO.runUncancellable { self.containsData(forKey: key) } ? .disk : .none
    }

    /// Removes every entry when `cacheType` includes disk (on ``/WebImageCore/BlockingWorkExecutor/fileIO``); see ``removeAll()``.
    public func clear(cacheType: ImageCacheType) async {
        guard cacheType.includesDisk else { return }
        await BlockingWorkExecutor.fileIO.runUncancellable { self.removeAll() }
    }
}
