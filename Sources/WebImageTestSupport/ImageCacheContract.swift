import Foundation
public import WebImageCore
public import Testing

/// The contract every ``/WebImageCore/ImageCache`` must meet: memory, disk, composite and plug-in caches all
/// run through it.
///
/// ```swift
/// @Test(arguments: ImageCacheContract.Check.allCases)
/// func contract(_ check: ImageCacheContract.Check) async throws {
///     try await ImageCacheContract.verify(check, on: MyCache())
/// }
/// ```
///
/// Each check uses keys of its own, so a shared cache instance may run them all; the checks
/// `clearEmptiesTheCache` and friends clear the whole cache, so give each check a fresh cache
/// when the cache is shared with other tests.
public enum ImageCacheContract {
    /// One clause of the contract.
    public enum Check: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// A query for a key never stored is a miss.
        case missIsNil
        /// What is stored (image and data) is found again, with the image's pixel size or the data.
        case storeThenQuery
        /// Storing data alone is found again (as data, or as an image decoded from it).
        case storeDataOnly
        /// A second store under the same key replaces the first.
        case overwriteReplaces
        /// `removeImage` makes the key a miss and leaves other keys alone.
        case removeOnlyThatKey
        /// `containsImage` says `.none` for a miss and a non-`.none` type for a hit.
        case containsReportsHit
        /// `clear(.all)` empties the cache.
        case clearEmptiesTheCache
        /// Hostile keys (path traversal, NUL bytes, 10 kB, Unicode, empty) are separate keys
        /// and break nothing.
        case hostileKeysAreIsolated
        /// 200 concurrent stores and queries on 20 keys neither crash nor lose a store.
        case concurrentAccess

        /// The check's name, as Swift Testing shows it for a parameterized test.
        public var testDescription: String { rawValue }
    }

    /// Runs one check on `cache`, recording failures with Swift Testing's `#expect`.
    public static func verify(_ check: Check, on cache: any ImageCache, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let prefix = "contract-\(check.rawValue)-\(UUID().uuidString)"
        let image = TestImages.still(width: 9, height: 7, seed: 11)
        let data = try RawBitmapCoder().encode(image, as: .rawBitmap)

        switch check {
        case .missIsNil:
            let result = await cache.queryImage(forKey: "\(prefix)-absent")
            #expect(result == nil, "a never-stored key must miss", sourceLocation: sourceLocation)

        case .storeThenQuery:
            try await cache.store(image, data: data, forKey: prefix)
            let result = try #require(await cache.queryImage(forKey: prefix), "a stored key must hit", sourceLocation: sourceLocation)
            #expect(result.cacheType != .none, sourceLocation: sourceLocation)
            #expect(matches(result, size: image.pixelSize, data: data), "the hit must hold the stored image or data", sourceLocation: sourceLocation)

        case .storeDataOnly:
            try await cache.store(nil, data: data, forKey: prefix)
            let result = try #require(await cache.queryImage(forKey: prefix), "stored data must hit", sourceLocation: sourceLocation)
            #expect(matches(result, size: image.pixelSize, data: data), sourceLocation: sourceLocation)

        case .overwriteReplaces:
            let second = TestImages.still(width: 5, height: 3, seed: 99)
            let secondData = try RawBitmapCoder().encode(second, as: .rawBitmap)
            try await cache.store(image, data: data, forKey: prefix)
            try await cache.store(second, data: secondData, forKey: prefix)
            let result = try #require(await cache.queryImage(forKey: prefix), sourceLocation: sourceLocation)
            #expect(matches(result, size: second.pixelSize, data: secondData), "the second store must win", sourceLocation: sourceLocation)

        case .removeOnlyThatKey:
            try await cache.store(image, data: data, forKey: "\(prefix)-a")
            try await cache.store(image, data: data, forKey: "\(prefix)-b")
            await cache.removeImage(forKey: "\(prefix)-a", cacheType: .all)
            #expect(await cache.queryImage(forKey: "\(prefix)-a") == nil, "a removed key must miss", sourceLocation: sourceLocation)
            #expect(await cache.queryImage(forKey: "\(prefix)-b") != nil, "other keys must stay", sourceLocation: sourceLocation)

        case .containsReportsHit:
            #expect(await cache.containsImage(forKey: prefix, cacheType: .all) == .none, sourceLocation: sourceLocation)
            try await cache.store(image, data: data, forKey: prefix)
            #expect(await cache.containsImage(forKey: prefix, cacheType: .all) != .none, sourceLocation: sourceLocation)

        case .clearEmptiesTheCache:
            for index in 0..<3 { try await cache.store(image, data: data, forKey: "\(prefix)-\(index)") }
            await cache.clear(cacheType: .all)
            for index in 0..<3 {
                #expect(await cache.queryImage(forKey: "\(prefix)-\(index)") == nil, "clear must remove key \(index)", sourceLocation: sourceLocation)
            }

        case .hostileKeysAreIsolated:
            let keys = [
                "../../etc/passwd", "/absolute/path", "a/b/../../c", "nul\0byte", String(repeating: "k", count: 10_000),
                "emoji-🖼️-ключ", "", " ", "with\nnewline", "https://example.com/image.png?x=1#frag",
            ].map { prefix + $0 } + [""]
            for (index, key) in keys.enumerated() {
                let variant = TestImages.still(width: 3 + index, height: 2, seed: UInt8(index))
                try await cache.store(variant, data: try RawBitmapCoder().encode(variant, as: .rawBitmap), forKey: key)
            }
            for (index, key) in keys.enumerated() {
                let variant = TestImages.still(width: 3 + index, height: 2, seed: UInt8(index))
                let result = try #require(await cache.queryImage(forKey: key), "hostile key \(index) must hit", sourceLocation: sourceLocation)
                #expect(matches(result, size: variant.pixelSize, data: nil), "hostile key \(index) must hold its own image", sourceLocation: sourceLocation)
            }

        case .concurrentAccess:
            let cacheRef = cache
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let key = "\(prefix)-\(index % 20)"
                        if index < 20 {
                            try? await cacheRef.store(image, data: data, forKey: key)
                        } else {
                            _ = await cacheRef.queryImage(forKey: key)
                        }
                    }
                }
            }
            for index in 0..<20 {
                #expect(await cache.queryImage(forKey: "\(prefix)-\(index)") != nil, "store \(index) must not be lost", sourceLocation: sourceLocation)
            }
        }
    }

    /// Whether a hit holds an image of `size`, or (when the cache keeps data only) `data`.
    private static func matches(_ result: ImageCacheResult, size: PixelSize, data: Data?) -> Bool {
        if let image = result.image { return image.pixelSize == size }
        if let stored = result.data {
            if let data { return stored == data }
            return (try? RawBitmapCoder().decode(stored).pixelSize) == size
        }
        return false
    }
}
