// CacheCrashWriter: a helper process for the SIGKILL test of WebImageCachesTests, and nothing
// else. It stores `count` entries of `size` bytes in a DiskCache at `directory`, each with
// extended data, and reports each completed store (CrashTestHarness.runChild), so that the test
// can kill it with SIGKILL in the middle of the writes and then check what a reader sees.
//
// Usage: CacheCrashWriter <directory> <count> <size>
//
// Entry i is stored under the key "entry-<i>". Its bytes are a fixed xorshift64 stream with i
// stamped into the first and last 8 bytes; the test computes the same bytes. One buffer is
// stamped in place for every entry, so that the writer spends its time inside the cache's
// writes, where a kill can land.
import Foundation
import WebImageCaches
import WebImageTestSupport

/// Stamps `index` into the first and last 8 bytes of `data` (little endian).
func stamp(_ index: Int, into data: inout Data) {
    let count = data.count
    withUnsafeBytes(of: UInt64(index).littleEndian) { stamp in
        for offset in 0..<min(8, count) {
            data[offset] = stamp[offset]
            data[count - 1 - offset] = stamp[offset]
        }
    }
}

/// The fixed stream behind every payload (the test checks against the same stream).
func basePayload(size: Int) -> Data {
    CrashTestHarness.fixedPayload(size: size)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]), let size = Int(arguments[3]), count >= 0, size >= 0 else {
    FileHandle.standardError.write(Data("usage: CacheCrashWriter <directory> <count> <size>\n".utf8))
    exit(2)
}
let cache = DiskCache(
    directory: URL(fileURLWithPath: arguments[1], isDirectory: true),
    config: DiskCache.Config(sizeLimit: Int.max / 2, maxAge: -1)
)
var payload = basePayload(size: size)
CrashTestHarness.runChild(steps: count) { index in
    stamp(index, into: &payload)
    try cache.setData(payload, forKey: "entry-\(index)", extendedData: Data("extended-\(index)".utf8))
}
