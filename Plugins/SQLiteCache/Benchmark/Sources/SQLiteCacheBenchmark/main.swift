// Compares SQLiteDiskCache with the built-in DiskCache: sequential writes, sequential and
// random reads, misses, and reads from 4 threads at once, for values of three sizes (two
// inline, one file-backed). Each case runs in a fresh temporary directory; the best of 5
// interleaved runs is reported, in operations per second and MB/s.
import Dispatch
import Foundation
import SQLiteCache
import WebImageCaches

protocol Storage: AnyObject, Sendable {
    func setData(_ data: Data, forKey key: String, extendedData: Data?) throws
    func data(forKey key: String) -> Data?
}
extension DiskCache: Storage {}
extension SQLiteDiskCache: Storage {}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// Where the caches go: `$BENCH_DIR` (a tmpfs such as /dev/shm isolates CPU cost from the
/// disk), else the system's temporary directory.
func temporaryDirectory() -> URL {
    let base = ProcessInfo.processInfo.environment["BENCH_DIR"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
    let url = base.appendingPathComponent("sqlite-bench-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func makeStorage(_ name: String, _ directory: URL, sizeLimit: Int = Int.max / 2) -> any Storage {
    switch name {
    case "DiskCache":
        DiskCache(directory: directory, config: DiskCache.Config(sizeLimit: sizeLimit, maxAge: -1))
    case "SQLiteDiskCache, 4 kB threshold":
        SQLiteDiskCache(directory: directory, config: SQLiteDiskCache.Config(sizeLimit: sizeLimit, maxAge: -1, inlineThreshold: 4_096))
    default:
        SQLiteDiskCache(directory: directory, config: SQLiteDiskCache.Config(sizeLimit: sizeLimit, maxAge: -1))
    }
}

struct Result { var write = 0.0, evictingWrite = 0.0, sequentialRead = 0.0, randomRead = 0.0, miss = 0.0, parallelRead = 0.0 }

func run(_ name: String, size: Int, count: Int) -> Result {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = makeStorage(name, directory)
    var payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131) })
    var result = Result()
    var start = now()
    for index in 0..<count {
        payload[0] = UInt8(truncatingIfNeeded: index)
        try! storage.setData(payload, forKey: "https://example.com/images/\(index).jpg", extendedData: nil)
    }
    result.write = Double(count) / (now() - start)

    // Reopen, so that reads start from the disk state (page cache warm, process caches cold).
    let reader = makeStorage(name, directory)
    start = now()
    var bytes = 0
    for index in 0..<count { bytes += reader.data(forKey: "https://example.com/images/\(index).jpg")!.count }
    result.sequentialRead = Double(count) / (now() - start)

    var generator = SystemRandomNumberGenerator()
    let order = (0..<count).map { _ in Int.random(in: 0..<count, using: &generator) }
    start = now()
    for index in order { bytes += reader.data(forKey: "https://example.com/images/\(index).jpg")!.count }
    result.randomRead = Double(count) / (now() - start)

    start = now()
    for index in 0..<count { precondition(reader.data(forKey: "https://example.com/missing/\(index).jpg") == nil) }
    result.miss = Double(count) / (now() - start)

    start = now()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for step in 0..<count {
            let index = (step * 7 + thread * 13) % count
            precondition(reader.data(forKey: "https://example.com/images/\(index).jpg") != nil)
        }
    }
    result.parallelRead = Double(4 * count) / (now() - start)
    precondition(bytes > 0)

    // Writes into a cache whose limit holds half of them: every write past the middle evicts.
    let limitedDirectory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: limitedDirectory) }
    let limited = makeStorage(name, limitedDirectory, sizeLimit: count * size / 2)
    start = now()
    for index in 0..<count {
        payload[0] = UInt8(truncatingIfNeeded: index)
        try! limited.setData(payload, forKey: "https://example.com/images/\(index).jpg", extendedData: nil)
    }
    result.evictingWrite = Double(count) / (now() - start)
    return result
}

func format(_ value: Double, size: Int) -> String {
    let ops = value >= 10_000 ? String(format: "%.0fk", value / 1000) : String(format: "%.1fk", value / 1000)
    return size > 0 ? "\(ops) (\(String(format: "%.0f", value * Double(size) / 1e6)) MB/s)" : ops
}

if CommandLine.arguments.count == 4 {
    // Profiling mode: <name> <size> <count>, one run, no table.
    let r = run(CommandLine.arguments[1], size: Int(CommandLine.arguments[2])!, count: Int(CommandLine.arguments[3])!)
    print(r)
    exit(0)
}
print("Operations per second (MB/s), best of 5 interleaved runs, synchronous API, one thread unless said.\n")
print("| value | cache | write | write at the limit | read in order | random read | miss | read, 4 threads |")
print("|---|---|---|---|---|---|---|---|")
for (size, count) in [(2_000, 4_000), (15_000, 2_000), (200_000, 400)] {
    // Interleaved, so that a burst of load from elsewhere hits both caches alike.
    // The 15 kB case also runs with values that size in files (a 4 kB threshold).
    let names = ["DiskCache", "SQLiteDiskCache"] + (size == 15_000 ? ["SQLiteDiskCache, 4 kB threshold"] : [])
    var best = Dictionary(uniqueKeysWithValues: names.map { ($0, Result()) })
    for _ in 0..<5 {
        for name in names {
            let r = run(name, size: size, count: count)
            best[name]!.write = max(best[name]!.write, r.write)
            best[name]!.evictingWrite = max(best[name]!.evictingWrite, r.evictingWrite)
            best[name]!.sequentialRead = max(best[name]!.sequentialRead, r.sequentialRead)
            best[name]!.randomRead = max(best[name]!.randomRead, r.randomRead)
            best[name]!.miss = max(best[name]!.miss, r.miss)
            best[name]!.parallelRead = max(best[name]!.parallelRead, r.parallelRead)
        }
    }
    for name in names {
        let b = best[name]!
        let label = "\(size / 1000) kB"
        print("| \(label) x \(count) | \(name) | \(format(b.write, size: size)) | \(format(b.evictingWrite, size: size)) | \(format(b.sequentialRead, size: size)) | \(format(b.randomRead, size: size)) | \(format(b.miss, size: 0)) | \(format(b.parallelRead, size: size)) |")
    }
}
