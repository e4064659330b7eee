import Foundation
import Testing
import WebImageCaches
import WebImageTestSupport

/// A writer process killed with SIGKILL in the middle of 1,000 writes leaves a cache in which
/// every readable entry has exactly the bytes stored, and no temporary file is an entry.
///
/// The writer is the `CacheCrashWriter` executable of this package (built with the tests: this
/// target depends on it), run by `CrashTestHarness`. It reports each store on its standard
/// output; the harness kills it right after the chosen store's line, which lands inside the next
/// store's `write` most of the time (entries are 1 MiB and the writer does little else). Three
/// rounds write into the same directory, each killed at a different point, each checked.
@Suite struct CrashSafetyTests {
    let root = TestDirectory()
    static let entryCount = 1_000
    static let entrySize = 1 << 20

    /// The bytes of entry `index`, as the writer makes them.
    static func payload(index: Int, base: Data) -> Data {
        var data = base
        withUnsafeBytes(of: UInt64(index).littleEndian) { stamp in
            for offset in 0..<8 {
                data[offset] = stamp[offset]
                data[data.count - 1 - offset] = stamp[offset]
            }
        }
        return data
    }

    /// FNV-1a, 64 bits, to report a torn or mixed entry (a failing `#expect` on two 1 MiB
    /// `Data` values would diff them byte by byte, which takes minutes).
    static func checksum(_ data: Data) -> UInt64 {
        data.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    /// The writer's fixed stream.
    static func basePayload(size: Int) -> Data {
        CrashTestHarness.fixedPayload(size: size)
    }

    @Test(.timeLimit(.minutes(5)))
    func sigkillMidWriteLeavesOnlyWholeEntries() async throws {
        let directory = root.appending("crash")
        let base = Self.basePayload(size: Self.entrySize)
        let writer = try CrashTestHarness(productNamed: "CacheCrashWriter")
        for (round, killAfter) in [99, 149, 59].enumerated() {
            let run = try await writer.run(arguments: [directory.path, "\(Self.entryCount)", "\(Self.entrySize)"], killAfterStep: killAfter)
            #expect(run.sawLine, "round \(round): the writer stopped before \(killAfter + 1) stores: \(run.termination)")
            #expect(run.wasKilled, "round \(round): the writer must die by SIGKILL, not finish: \(run.termination)")

            // Every readable entry holds exactly what was stored, with its extended data.
            let cache = DiskCache(directory: directory)
            var readable = 0
            for index in 0..<Self.entryCount {
                guard let entry = cache.entry(forKey: "entry-\(index)") else { continue }
                readable += 1
                #expect(entry.data.count == Self.entrySize, "round \(round): entry \(index) has \(entry.data.count) bytes")
                let expected = Self.payload(index: index, base: base)
                if entry.data != expected {
                    Issue.record("round \(round): entry \(index) differs from what was stored: checksum \(Self.checksum(entry.data)), stored \(Self.checksum(expected))")
                }
                #expect(entry.extendedData == Data("extended-\(index)".utf8), "round \(round): entry \(index) lost its extended data")
            }
            #expect(readable > killAfter, "round \(round): the \(killAfter + 1) stores reported done must be readable")
            #expect(readable < Self.entryCount, "round \(round): the kill must land before the 1,000 writes end")
            // No temporary file is an entry: the entry count is the count of readable keys.
            #expect(cache.totalCount() == readable, "round \(round)")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(files.filter { !$0.hasPrefix(".") }.count == readable, "round \(round): every entry file belongs to a stored key")
        }

        // Whatever the killed writers left (temporary files, most likely) is swept once stale.
        let cache = DiskCache(directory: directory)
        let before = cache.totalCount()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix(".tmp-") {
            let path = directory.appendingPathComponent(name).path
            FileTimes.set(path, access: FileTimes.now() - 3600, modification: FileTimes.now() - 3600)
        }
        cache.removeExpiredData()
        let after = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(after.allSatisfy { !$0.hasPrefix(".tmp-") }, "stale temporary files are removed: \(after.filter { $0.hasPrefix(".") })")
        #expect(cache.totalCount() == before)
    }
}
