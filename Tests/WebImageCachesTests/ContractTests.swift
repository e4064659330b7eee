import Foundation
import Testing
import WebImageTestSupport
import WebImageCaches
import WebImageCore

/// Every cache of this module, and a ``CachesManager`` holding them, passes the Core
/// ``ImageCacheContract``. Each check gets a fresh cache in a fresh temporary directory.
@Suite struct ContractTests {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case memory
        case disk
        case diskWithSidecars
        case webImageCache
        case webImageCacheDiskOnly
        case managerOfWebImageCache
        case managerOfEveryTier

        var testDescription: String { rawValue }
    }

    let root = TestDirectory()

    init() {
        RawBitmapCoder.registerFormat()
    }

    func makeCache(_ kind: Kind) -> any ImageCache {
        switch kind {
        case .memory:
            return MemoryCache()
        case .disk:
            return DiskCache(directory: root.appending("disk"))
        case .diskWithSidecars:
            return DiskCache(directory: root.appending("disk"), config: DiskCache.Config(extendedDataStorage: .sidecar))
        case .webImageCache:
            return WebImageCache(namespace: "contract", directory: root.url, coder: RawBitmapCoder())
        case .webImageCacheDiskOnly:
            // Memory disabled: every hit is decoded from disk.
            return WebImageCache(namespace: "contract", directory: root.url, config: WebImageCache.Config(shouldCacheImagesInMemory: false), coder: RawBitmapCoder())
        case .managerOfWebImageCache:
            return CachesManager([WebImageCache(namespace: "contract", directory: root.url, coder: RawBitmapCoder())])
        case .managerOfEveryTier:
            // Query serial (first hit wins), store to the highest only: the image cache.
            return CachesManager([
                MemoryCache(),
                DiskCache(directory: root.appending("disk")),
                WebImageCache(namespace: "contract", directory: root.url, coder: RawBitmapCoder()),
            ])
        }
    }

    @Test(arguments: Kind.allCases, ImageCacheContract.Check.allCases)
    func contract(_ kind: Kind, _ check: ImageCacheContract.Check) async throws {
        try await ImageCacheContract.verify(check, on: makeCache(kind))
    }
}
