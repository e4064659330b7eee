import Foundation
import SQLiteCache
import SwiftWebImage
import Testing
import WebImageTestSupport

/// Many tasks and threads at once, on one cache and on two caches sharing a database: nothing
/// crashes, nothing is torn, the totals stay true and the limits hold.
@Suite(.onOwnThreads) struct ConcurrencyTests {
    let root = TemporaryDirectory()

    /// Value `version` of key `index`: inline for even keys, file-backed for odd ones, with
    /// both numbers stamped in so that a torn or mixed value shows.
    static func value(key index: Int, version: Int) -> Data {
        let size = index % 2 == 0 ? 2_000 : 40_000
        var bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: index &* 7 &+ version), count: size)
        bytes[0] = UInt8(truncatingIfNeeded: index)
        bytes[1] = UInt8(truncatingIfNeeded: version)
        bytes[size - 1] = UInt8(truncatingIfNeeded: version)
        return Data(bytes)
    }

    /// Whether `data` is some complete version of key `index`.
    static func isWholeVersion(_ data: Data, key index: Int) -> Bool {
        guard data.count >= 2 else { return false }
        return data == value(key: index, version: Int(data[1]))
    }

    /// 800 tasks store, read, check and remove 40 keys through the async API; afterwards every
    /// key holds a whole value or none, and the totals match the rows.
    @Test func manyTasksOnOneCache() async throws {
        let cache = SQLiteImageCache(directory: root.appending("cache"), config: SQLiteImageCache.Config(shouldCacheImagesInMemory: false), coder: RawBitmapCoder())
        let torn = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<800 {
                group.addTask {
                    let index = task % 40
                    let key = "key-\(index)"
                    switch task % 5 {
                    case 0, 1:
                        try? await cache.store(nil, data: Self.value(key: index, version: task % 200), forKey: key, cacheType: .disk)
                    case 2:
                        if let hit = await cache.queryImage(forKey: key, options: .avoidDecodeImage, context: WebImageContext(), cacheType: .disk),
                           let data = hit.data, !Self.isWholeVersion(data, key: index) {
                            torn.withLock { $0 += 1 }
                        }
                    case 3:
                        _ = await cache.containsImage(forKey: key, cacheType: .disk)
                    default:
                        if task % 25 == 4 { await cache.removeImage(forKey: key, cacheType: .disk) }
                    }
                }
            }
        }
        #expect(torn.withLock { $0 } == 0)
        var present = 0
        var bytes = 0
        for index in 0..<40 {
            guard let data = cache.diskImageData(forKey: "key-\(index)") else { continue }
            #expect(Self.isWholeVersion(data, key: index), "key \(index)")
            present += 1
            bytes += data.count
        }
        #expect(cache.diskCache.totalCount() == present)
        #expect(cache.diskCache.totalSize() == bytes)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.diskCache.filesDirectory.path)
        #expect(files.count == (0..<40).filter { $0 % 2 == 1 && cache.diskCache.containsData(forKey: "key-\($0)") }.count,
                "no value file outlives its entry")
    }

    /// Two caches on one database (as two processes would be), hammered from many threads with
    /// the synchronous API and a count limit: no write fails for lack of the lock, values stay
    /// whole, and the limit holds for both.
    @Test func twoInstancesOnOneDatabase() throws {
        let directory = root.appending("shared")
        let config = SQLiteDiskCache.Config(countLimit: 25)
        let caches = [SQLiteDiskCache(directory: directory, config: config), SQLiteDiskCache(directory: directory, config: config)]
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 400) { iteration in
            let cache = caches[iteration % 2]
            let index = iteration % 50
            do {
                try cache.setData(Self.value(key: index, version: iteration % 256), forKey: "key-\(index)")
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
            if let data = cache.data(forKey: "key-\((iteration * 7) % 50)"), !Self.isWholeVersion(data, key: (iteration * 7) % 50) {
                failures.withLock { $0.append("torn key-\((iteration * 7) % 50)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for cache in caches {
            #expect(cache.totalCount() <= 25)
        }
        let present = (0..<50).filter { caches[0].containsData(forKey: "key-\($0)") }
        #expect(present.count == caches[1].totalCount())
        for index in present {
            let data = try #require(caches[1].data(forKey: "key-\(index)"))
            #expect(Self.isWholeVersion(data, key: index))
        }
    }
}
