import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageCaches
import WebImageCore

/// How many threads a disk hit wakes: the read and the decode are chained
/// (``BlockingWorkExecutor/run(steps:)``), so with idle executors one worker thread reads the
/// file and decodes it (as a worker of the processing executor, within its width), and the
/// querying task is resumed once. Counted on executors of the test's own, not by timing.
@Suite struct DiskHitHandOverTests {
    init() {
        RawBitmapCoder.registerFormat()
    }

    static let image = TestImages.still(width: 9, height: 7, seed: 3)

    /// A cache over an in-memory disk tier holding `keys`, with executors of its own.
    private func makeCache(holding keys: [String]) throws -> (WebImageCache, io: BlockingWorkExecutor, processing: BlockingWorkExecutor) {
        let storage = InMemoryDiskStorage()
        let data = try RawBitmapCoder().encode(Self.image, as: .rawBitmap)
        for key in keys { try storage.setData(data, forKey: key, extendedData: nil) }
        let io = BlockingWorkExecutor(name: "test.io", width: 8)
        let processing = BlockingWorkExecutor(name: "test.processing", width: 2)
        let cache = WebImageCache(namespace: "test", diskStorage: storage, config: WebImageCache.Config(), coder: RawBitmapCoder(), ioExecutor: io, processingExecutor: processing)
        return (cache, io, processing)
    }

    @Test func aDiskHitWakesOneWorkerThread() async throws {
        let (cache, io, processing) = try makeCache(holding: ["k"])
        let hit = try #require(await cache.queryImage(forKey: "k", options: [], context: WebImageContext(), cacheType: .all))
        #expect(hit.cacheType == .disk)
        #expect(hit.image?.pixelSize == Self.image.pixelSize)
        #expect(cache.imageFromMemoryCache(forKey: "k") != nil, "promoted to memory")
        #expect(io.startedWorkerCount == 1)
        #expect(processing.startedWorkerCount == 0, "the reading thread decoded")
        #expect(processing.peakRunningCount == 1, "the decode held a processing slot")
    }

    @Test func aDiskMissWakesOneWorkerAndDecodesNothing() async throws {
        let (cache, io, processing) = try makeCache(holding: [])
        #expect(await cache.queryImage(forKey: "k", options: [], context: WebImageContext(), cacheType: .all) == nil)
        #expect(io.startedWorkerCount == 1)
        #expect(processing.peakRunningCount == 0)
    }

    /// `avoidDecodeImage`: the data alone, nothing decoded, no processing slot taken.
    @Test func aDataOnlyHitSkipsTheProcessingExecutor() async throws {
        let (cache, io, processing) = try makeCache(holding: ["k"])
        let hit = try #require(await cache.queryImage(forKey: "k", options: .avoidDecodeImage, context: WebImageContext(), cacheType: .all))
        #expect(hit.image == nil && hit.data != nil)
        #expect(io.startedWorkerCount == 1)
        #expect(processing.peakRunningCount == 0)
    }

    /// The whole manager load of a disk hit: one worker thread off the concurrency pool.
    @Test func aManagerDiskHitWakesOneWorkerThread() async throws {
        let url = URL(string: "https://example.com/a.raw")!
        let (cache, io, processing) = try makeCache(holding: [url.absoluteString])
        let manager = ImageManager(cache: cache, loader: LoadersManager())
        let result = try await manager.loadImage(with: url)
        #expect(result.cacheType == .disk)
        #expect(result.image?.pixelSize == Self.image.pixelSize)
        #expect(io.startedWorkerCount == 1)
        #expect(processing.startedWorkerCount == 0)
        // The next load is a memory hit: no executor at all.
        #expect(try await manager.loadImage(with: url).cacheType == .memory)
        #expect(io.startedWorkerCount == 1)
    }
}
