public import Foundation
public import WebImageCore

/// ``RedisImageCache`` as an ``/WebImageCore/ImageCache``: Redis is the `.disk` tier; every
/// failure of Redis is a miss (query), a dropped store (store) or a logged no-op (remove,
/// contains, clear), within the client's command timeout.
extension RedisImageCache: ImageCache {
    /// Looks `key` up in Redis when `cacheType` includes `.disk`.
    ///
    /// A hit (``/WebImageCore/ImageCacheType/disk``) carries the stored data and the image
    /// decoded from it (with its extended data restored); with `avoidDecodeImage` the data only.
    /// With a ``promotionCache`` the image is put there too, unless the query's thumbnail size
    /// or scale-down budget decoded it smaller than the data, or `decodeFirstFrameOnly` made it still.
    /// Redis failing, a missing key, a corrupt value or data no coder can decode are all misses.
    /// A cancelled task gets `nil`.
    public func queryImage(forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async -> ImageCacheResult? {
        guard cacheType.includesDisk, !Task.isCancelled else { return nil }
        let redisKey = keyspace.redisKey(for: key)
        let reply: RedisValue
        do {
            reply = try await client.send(.get(redisKey))
        } catch {
            if WebImageError.isCancellation(error) { return nil }
            record { $0.failedQueries += 1 }
            log(.error, "the query of key \(Self.describe(key)) is a miss", error, context: context)
            return nil
        }
        let value: Data
        switch reply {
        case .bulkString(let bytes):
            value = bytes
        case .null:
            record { $0.misses += 1 }
            return nil
        default:
            record { $0.failedQueries += 1 }
            log(.error, "the query of key \(Self.describe(key)) is a miss: GET answered \(reply)", context: context)
            return nil
        }
        let envelope: CacheEnvelope
        do {
            envelope = try CacheEnvelope.decode(value)
        } catch {
            switch error {
            case .corrupt(let reason):
                await discardCorrupt(key: key, redisKey: redisKey, reason: "its value is not an entry of this cache: \(reason)", context: context)
            case .newerVersion(let version):
                record { $0.misses += 1 }
                log(.warning, "key \(Self.describe(key)) holds an entry of format version \(version), written by a newer plug-in; treated as a miss and kept", context: context)
            }
            return nil
        }
        if options.contains(.avoidDecodeImage) {
            record { $0.hits += 1 }
            await copyHit(envelope.data, forKey: key, context: context)
            return ImageCacheResult(image: nil, data: envelope.data, cacheType: .disk)
        }
        // The shared decode stage: coder choice, options, checks, shaping, keep-or-remove.
        let stage = ImageDecodeRequest(key: key, options: options, context: context, defaultCoder: coder)
        let image: WebImage
        switch await stage.decodeCachedData(envelope.data, extendedData: envelope.extendedData, on: .processing) {
        case .image(let decoded):
            image = decoded
        case .keep:
            record { $0.misses += 1 }
            return nil
        case .remove(let error):
            await discardCorrupt(key: key, redisKey: redisKey, reason: "its data does not decode: \(error)", context: context)
            return nil
        }
        if Task.isCancelled { return nil }
        record { $0.hits += 1 }
        // Never a decode smaller than the stored data (thumbnail, scale-down): the memory tier
        // would answer later plain queries of the key with it.
        if let memory = promotionCache, context.storeCacheType?.includesMemory ?? true, stage.mayPromote(image) {
            memory.setImage(image, forKey: key)
        }
        await copyHit(envelope.data, forKey: key, context: context)
        return ImageCacheResult(image: image, data: envelope.data, cacheType: .disk)
    }

    /// Writes a hit's data to the disk tier of ``hitCopyCache``, if there is one and the
    /// request's ``/WebImageCore/WebImageContext/storeCacheType`` does not leave disk out, or
    /// its ``/WebImageCore/WebImageContext/originalStoreCacheType`` says disk (a transformed
    /// request that stores only its original: a hit of the original's key is copied).
    private func copyHit(_ data: Data, forKey key: String, context: WebImageContext) async {
        let storesOnDisk = (context.storeCacheType?.includesDisk ?? true) || (context.originalStoreCacheType?.includesDisk ?? false)
        guard let local = hitCopyCache, storesOnDisk else { return }
        try? await local.store(nil, data: data, forKey: key, options: [], context: context, cacheType: .disk)
    }

    /// Stores `data` (or the image encoded) with the image's metadata when `cacheType` includes
    /// `.disk`, expiring after ``Config/maxAge``.
    ///
    /// - Throws: ``/WebImageCore/WebImageError`` with `invalidArgument` when both are `nil`;
    ///   `cacheFailure` when nothing was stored: the value is over ``Config/maxValueSize``, the
    ///   image could not be encoded, or Redis failed (the store is then dropped: counted in
    ///   ``Statistics/droppedStores`` and logged). Callers may ignore it: `ImageManager` goes on
    ///   and reports it as the request's `storeFailed` event.
    public func store(_ image: WebImage?, data: Data?, forKey key: String, options: WebImageOptions, context: WebImageContext, cacheType: ImageCacheType) async throws {
        guard cacheType.includesDisk else { return }
        guard image != nil || data != nil else {
            throw WebImageError(.invalidArgument, "RedisImageCache.store for key \(Self.describe(key)) got neither an image nor data")
        }
        let maxAge = config.maxAge
        guard maxAge != 0, !maxAge.isNaN else { return }
        let bytes: Data
        if let data {
            bytes = data
        } else if let image {
            let coder = context.imageCoder ?? self.coder
            do {
                bytes = try await BlockingWorkExecutor.processing.runUncancellable { try Self.encodedData(for: image, coder: coder, context: context) }
            } catch {
                record { $0.skippedStores += 1 }
                throw WebImageError(.cacheFailure, "RedisImageCache did not store key \(Self.describe(key)): the image has no data and could not be encoded: \(error)", underlyingError: error as? WebImageError)
            }
        } else {
            return
        }
        // The format of the bytes stored; the image's own when they are of no known format.
        let detected = ImageFormat.detect(bytes)
        let envelope = CacheEnvelope(
            format: detected == .undefined ? image?.format ?? .undefined : detected,
            pixelSize: image?.pixelSize ?? .zero,
            extendedData: image?.extendedData,
            data: bytes
        )
        guard let value = envelope.encoded(), value.count <= config.maxValueSize else {
            record { $0.skippedStores += 1 }
            throw WebImageError(.cacheFailure, "RedisImageCache did not store key \(Self.describe(key)): its value of \(bytes.count) bytes of data plus metadata is over the limit of \(config.maxValueSize) bytes")
        }
        let milliseconds = maxAge < 0 || maxAge.isInfinite ? nil : Int(min((maxAge * 1000).rounded(.up), 1e15))
        let reply: RedisValue
        do {
            reply = try await client.send(.set(keyspace.redisKey(for: key), value, expiresInMilliseconds: milliseconds))
        } catch {
            let error = (error as? WebImageError) ?? WebImageError(.cacheFailure, "\(error)")
            record { $0.droppedStores += 1 }
            log(.error, "dropped the store of key \(Self.describe(key)) (\(value.count) bytes)", error, context: context)
            throw WebImageError(.cacheFailure, "RedisImageCache dropped the store of key \(Self.describe(key)): \(error.message)", underlyingError: error.underlyingError)
        }
        guard reply == .simpleString("OK") else {
            record { $0.droppedStores += 1 }
            log(.error, "dropped the store of key \(Self.describe(key)) (\(value.count) bytes): SET answered \(reply)", context: context)
            throw WebImageError(.cacheFailure, "RedisImageCache dropped the store of key \(Self.describe(key)): SET answered \(reply)")
        }
        record { $0.stores += 1 }
    }

    /// Removes `key` from Redis when `cacheType` includes `.disk` (UNLINK). A Redis failure is
    /// logged and counted in ``Statistics/failedMaintenance``.
    public func removeImage(forKey key: String, cacheType: ImageCacheType) async {
        guard cacheType.includesDisk else { return }
        do {
            try await unlink([keyspace.redisKey(for: key)])
        } catch {
            record { $0.failedMaintenance += 1 }
            log(.error, "could not remove key \(Self.describe(key))", error)
        }
    }

    /// `.disk` when Redis holds `key` and `cacheType` includes `.disk` (EXISTS); `.none`
    /// otherwise, and when Redis fails (logged).
    public func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        guard cacheType.includesDisk else { return .none }
        do {
            let reply = try await client.send(.exists([keyspace.redisKey(for: key)]))
            return (reply.integer ?? 0) > 0 ? .disk : .none
        } catch {
            record { $0.failedMaintenance += 1 }
            log(.error, "could not check key \(Self.describe(key))", error)
            return .none
        }
    }

    /// Removes every entry of this namespace when `cacheType` includes `.disk`: SCAN with the
    /// namespace's MATCH pattern, UNLINK per batch; on a Redis Cluster on every master. Keys of other namespaces and other
    /// applications stay (never FLUSHDB). Entries stored while the walk runs may stay; a
    /// Redis failure stops the walk and is logged.
    public func clear(cacheType: ImageCacheType) async {
        guard cacheType.includesDisk else { return }
        do {
            _ = try await removeNamespace()
        } catch {
            record { $0.failedMaintenance += 1 }
            log(.error, "could not clear the namespace", error)
        }
    }

    // MARK: Helpers

    /// Walks the namespace with SCAN and unlinks what it finds.
    /// - Returns: The number of keys removed.
    @discardableResult
    func removeNamespace() async throws -> Int {
        var removed = 0
        try await client.scanKeys(matching: keyspace.scanPattern, count: 1000) { keys in
            let batch = keys.filter { keyspace.owns($0) }
            if !batch.isEmpty { removed += try await unlink(batch) }
        }
        return removed
    }

    /// UNLINKs `keys` (DEL on a server without UNLINK).
    /// - Returns: How many existed.
    @discardableResult
    func unlink(_ keys: [Data]) async throws -> Int {
        var reply = try await client.send(.unlink(keys))
        if case .error(let message) = reply, message.lowercased().contains("unknown command") {
            reply = try await client.send(.del(keys))
        }
        guard let count = reply.integer else {
            throw WebImageError(.cacheFailure, "UNLINK answered \(reply)")
        }
        return count
    }

    /// Counts, logs (to the request's sink too, with `context`) and removes a value this cache
    /// cannot use.
    private func discardCorrupt(key: String, redisKey: Data, reason: String, context: WebImageContext? = nil) async {
        record {
            $0.corruptValues += 1
            $0.misses += 1
        }
        log(.warning, "removed key \(Self.describe(key)): \(reason)", context: context)
        _ = try? await unlink([redisKey])
    }

    /// The data to store for an image stored without data: an animated image's original data
    /// when its frames are lazy; else encoded by `coder`, a still image as PNG if it has alpha
    /// or JPEG if not (SDWebImage's rule), an animated one in its own format or GIF.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat`` or the coder's error.
    static func encodedData(for image: WebImage, coder: any ImageCoder, context: WebImageContext) throws -> Data {
        if case .animated(let animated) = image.storage {
            return animated.provider.animatedImageData
        }
        var format: ImageFormat = image.hasAlpha ? .png : .jpeg
        if image.isAnimated {
            if image.format != .undefined, coder.canEncode(to: image.format) {
                format = image.format
            } else if coder.canEncode(to: .gif) {
                format = .gif
            }
        }
        guard coder.canEncode(to: format) else {
            throw WebImageError(.unsupportedFormat, "no coder can encode a \(image.pixelSize) image \(image.hasAlpha ? "with" : "without") alpha as \(format)")
        }
        var encodeOptions = context.imageEncodeOptions ?? ImageEncodeOptions()
        encodeOptions.context = context
        return try coder.encode(image, as: format, options: encodeOptions)
    }
}
