import Dispatch
import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
@testable import WebImageCaches

/// The size limit's sweep runs on one writer at a time, and the other writes do not wait for
/// it: a write that goes over the limit while a sweep runs stores its entry and returns.
@Suite struct DiskCacheSweepTests {
    let root = TestDirectory()

    @Test func aWriteOverTheLimitDoesNotWaitForARunningSweep() async throws {
        let cache = DiskCache(directory: root.appending("cache"), config: DiskCache.Config(sizeLimit: 10_000))
        for index in 0..<10 { try cache.setData(Data(repeating: UInt8(index), count: 1000), forKey: "k\(index)") }
        let written = DispatchSemaphore(value: 0)
        // The holding thread is one of its own: the wait below must not hold a pool thread.
        let returned = await OwnThread.run { cache.sweepLock.withLock { _ -> Bool in
            // A sweep "runs" (the test holds its lock) while another thread writes past the limit.
            Thread.detachNewThread {
                try? cache.setData(Data(repeating: 10, count: 1000), forKey: "k10")
                written.signal()
            }
            return written.wait(timeout: .now() + 60) == .success  // blocking: own thread (OwnThread.run)
        } }
        #expect(returned, "the write waited for the running sweep")
        #expect(cache.data(forKey: "k10") == Data(repeating: 10, count: 1000))
        // The next write over the limit sweeps: oldest first, down to half the limit.
        try cache.setData(Data(repeating: 11, count: 1000), forKey: "k11")
        #expect(cache.totalSize() <= 5_000)
        #expect(cache.containsData(forKey: "k11"))
    }
}
