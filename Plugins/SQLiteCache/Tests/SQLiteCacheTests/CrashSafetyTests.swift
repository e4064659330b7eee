import Foundation
import SQLiteCache
import Testing
import WebImageTestSupport

/// A writer process killed with SIGKILL in the middle of its writes leaves a database that
/// opens, passes SQLite's integrity check, and returns only whole entries: each one exactly as
/// some completed write stored it, with that write's extended data.
///
/// The writer is the `SQLiteCrashWriter` executable of this package (built with the tests: this
/// target depends on it), run by `CrashTestHarness`. It reports each store on its standard
/// output; the harness kills it right after the line of a chosen store, while it is in the
/// middle of a later one (a 300 kB value file or a SQLite transaction). Three rounds write into
/// the same directory, so later rounds overwrite entries of earlier ones; each is checked.
@Suite struct CrashSafetyTests {
    let root = TemporaryDirectory()
    static let entryCount = 1_000

    // The writer's payloads (see Tests/SQLiteCrashWriter/main.swift).

    static func entrySize(_ index: Int) -> Int {
        index % 3 == 0 ? 300_000 : 6_000
    }

    static let base: [UInt8] = {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        return (0..<entrySize(0)).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }()

    static func payload(index: Int, round: Int) -> Data {
        var bytes = Array(base.prefix(entrySize(index)))
        let count = bytes.count
        withUnsafeBytes(of: (UInt64(index).littleEndian, UInt64(round).littleEndian)) { stamp in
            for offset in 0..<16 {
                bytes[offset] = stamp[offset]
                bytes[count - 1 - offset] = stamp[offset]
            }
        }
        return Data(bytes)
    }

    @Test(.timeLimit(.minutes(5)))
    func sigkillMidWriteLeavesOnlyWholeEntries() async throws {
        let directory = root.appending("crash")
        var fileBackedRows = 0
        let writer = try CrashTestHarness(productNamed: "SQLiteCrashWriter")
        for (round, killAfter) in [150, 299, 70].enumerated() {
            let run = try await writer.run(arguments: [directory.path, "\(Self.entryCount)", "\(round)"], killAfterStep: killAfter)
            #expect(run.sawLine, "round \(round): the writer stopped before store \(killAfter): \(run.termination)")
            #expect(run.wasKilled, "round \(round): the writer must die by SIGKILL, not finish: \(run.termination)")

            let cache = SQLiteDiskCache(directory: directory, config: SQLiteDiskCache.Config(sizeLimit: Int.max / 2, maxAge: -1))
            #expect(try RawDatabase(cache).query("PRAGMA integrity_check") == [["ok"]], "round \(round)")
            let rows = cache.totalCount()
            var readable = 0
            fileBackedRows = 0
            for index in 0..<Self.entryCount {
                guard let entry = cache.entry(forKey: "entry-\(index)") else { continue }
                readable += 1
                if Self.entrySize(index) > SQLiteDiskCache.defaultInlineThreshold { fileBackedRows += 1 }
                // Which completed write stored it: this round's, or an earlier round's.
                let writtenIn = (0...round).last { entry.data == Self.payload(index: index, round: $0) }
                guard let writtenIn else {
                    Issue.record("round \(round): entry \(index) (\(entry.data.count) bytes) is no complete write")
                    continue
                }
                #expect(entry.extendedData == Data("extended-\(index)-\(writtenIn)".utf8), "round \(round): entry \(index)")
                if index <= killAfter {
                    #expect(writtenIn == round, "round \(round): entry \(index) was reported stored in this round")
                }
            }
            #expect(readable > killAfter, "round \(round): the \(killAfter + 1) stores reported done must be readable")
            #expect(readable < Self.entryCount, "round \(round): the kill must land before the writes end")
            #expect(rows == readable, "round \(round): every row holds a whole entry (none was dropped as broken)")
            let files = try FileManager.default.contentsOfDirectory(atPath: cache.filesDirectory.path)
            #expect(files.count >= fileBackedRows && files.count <= fileBackedRows + round + 1,
                    "round \(round): \(files.count) files for \(fileBackedRows) file-backed entries: at most one orphan per killed write")
        }

        // The orphans the killed writers left are swept once they are stale.
        let cache = SQLiteDiskCache(directory: directory, config: SQLiteDiskCache.Config(sizeLimit: Int.max / 2, maxAge: -1))
        #expect(cache.removeExpiredData(referenceDate: Date().addingTimeInterval(3_600)) == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.filesDirectory.path)
        #expect(files.count == fileBackedRows)
    }
}
