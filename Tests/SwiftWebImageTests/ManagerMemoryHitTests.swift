import Foundation
import SwiftWebImage
import Testing
import WebImageTestSupport

/// A memory hit through the manager and WebImageCache (issue 35): both APIs answer it on the
/// calling thread, from the fast path, with what the cache holds.
@Suite struct ManagerMemoryHitTests {
    @Test func bothAPIsAnswerAMemoryHitAtOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = WebImageCache(namespace: "hit", directory: directory, coder: CodersManager.shared)
        let manager = ImageManager(cache: cache, loader: LoadersManager())
        let url = URL(string: "https://example.com/hit.png")!
        let image = WebImage(bitmap: TestImages.gradient(width: 8, height: 6, seed: 1), format: .png)
        try await cache.store(image, data: nil, forKey: url.absoluteString, cacheType: .memory)

        let result = try await manager.loadImage(with: url)
        #expect(result.cacheType == .memory && result.image?.bitmap == image.bitmap && result.data == nil)
        let delivered = Locked<ImageLoadResult?>(nil)
        let operation = manager.loadImage(with: url) { result in
            let value = try? result.get()
            delivered.withLock { $0 = value }
        }
        #expect(delivered.withLock { $0 }?.cacheType == .memory, "called back before loadImage returned")
        #expect(!operation.isCancelled && !manager.isRunning)
        operation.cancel()
        #expect(operation.isCancelled, "a finished operation can still be cancelled (nothing happens)")
    }
}
