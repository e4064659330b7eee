// SQLiteCrashWriter: a helper process for the SIGKILL test of SQLiteCacheTests, and nothing
// else. It stores entries in a SQLiteDiskCache at `directory` and reports each completed store
// (CrashTestHarness.runChild), so that the test can kill it with SIGKILL in the middle of a
// write and then check what a reader sees.
//
// Usage: SQLiteCrashWriter <directory> <count> <round>
//
// Entry i is stored under the key "entry-<i>" with the extended data "extended-<i>-<round>".
// Every third entry is 300,000 bytes (a value file), the others 6,000 bytes (inline). The bytes
// are a fixed xorshift64 stream with i and the round stamped into the first and last 16 bytes;
// the test computes the same bytes. One buffer is stamped in place for each entry, so that the
// writer spends its time inside the cache's writes, where a kill can land.
import Foundation
import SQLiteCache
import WebImageTestSupport

/// The size of entry `index`.
func entrySize(_ index: Int) -> Int {
    index % 3 == 0 ? 300_000 : 6_000
}

/// The fixed stream behind every payload.
func stream(size: Int) -> [UInt8] {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    return (0..<size).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    }
}

/// Stamps `index` and `round` into the first and last 16 bytes of `bytes`.
func stamp(_ bytes: inout [UInt8], index: Int, round: Int) {
    let count = bytes.count
    withUnsafeBytes(of: (UInt64(index).littleEndian, UInt64(round).littleEndian)) { stamp in
        for offset in 0..<16 {
            bytes[offset] = stamp[offset]
            bytes[count - 1 - offset] = stamp[offset]
        }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]), let round = Int(arguments[3]), count >= 0 else {
    FileHandle.standardError.write(Data("usage: SQLiteCrashWriter <directory> <count> <round>\n".utf8))
    exit(2)
}
let cache = SQLiteDiskCache(
    directory: URL(fileURLWithPath: arguments[1], isDirectory: true),
    config: SQLiteDiskCache.Config(sizeLimit: Int.max / 2, maxAge: -1)
)
let base = stream(size: entrySize(0))
var large = base
var small = Array(base.prefix(entrySize(1)))
CrashTestHarness.runChild(steps: count) { index in
    let value: Data
    if entrySize(index) == large.count {
        stamp(&large, index: index, round: round)
        value = Data(large)
    } else {
        stamp(&small, index: index, round: round)
        value = Data(small)
    }
    try cache.setData(value, forKey: "entry-\(index)", extendedData: Data("extended-\(index)-\(round)".utf8))
}
