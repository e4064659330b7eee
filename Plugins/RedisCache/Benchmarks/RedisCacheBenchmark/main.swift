// The latency of a Redis hit next to a local disk hit, in release mode:
//
//     swift run -c release --scratch-path .build-redis RedisCacheBenchmark [iterations]
//
// It starts its own redis-server on a free loopback port (Debian: apt-get install
// redis-server), stores one JPEG photo-like image in a RedisImageCache and in a WebImageCache
// (memory tier off, so every query reads the disk), then times queries one after another:
// data only (avoidDecodeImage: the transport) and decoded (what ImageManager gets), plus the
// layered setup's memory hit. Prints a Markdown table of median and p95 latencies.
import Foundation
import RedisCache
import RedisServerHarness
import SwiftWebImage

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2000

/// A photo-like 512x512 image (smooth gradients plus a little pattern), encoded as JPEG.
func makeImage() throws -> (image: WebImage, data: Data) {
    let width = 512, height = 512
    var bytes = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let offset = (y * width + x) * 4
            bytes[offset] = UInt8(x * 255 / (width - 1))
            bytes[offset + 1] = UInt8(y * 255 / (height - 1))
            bytes[offset + 2] = UInt8(truncatingIfNeeded: (x * y) >> 6)
        }
    }
    let image = WebImage(bitmap: try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: false))
    let data = try CodersManager.shared.encode(image, as: .jpeg, options: ImageEncodeOptions())
    return (image, data)
}

/// Runs `body` `iterations` times after a warm-up and returns the sorted latencies in µs.
func measure(_ body: () async -> Bool) async -> [Double] {
    for _ in 0..<min(100, iterations) { _ = await body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    let clock = ContinuousClock()
    for _ in 0..<iterations {
        let start = clock.now
        let hit = await body()
        let elapsed = clock.now - start
        precondition(hit, "a query that should hit missed")
        let (seconds, attoseconds) = elapsed.components
        samples.append(Double(seconds) * 1e6 + Double(attoseconds) / 1e12)
    }
    return samples.sorted()
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
}

let redisServer = try await RedisServerProcess.start()
defer { redisServer.stop() }
let (image, data) = try makeImage()
let key = "https://images.example.com/photo.jpg"

let redis = RedisImageCache(
    configuration: RedisClient.Configuration(port: redisServer.port),
    config: RedisImageCache.Config(namespace: "benchmark"),
    coder: CodersManager.shared
)
try await redis.store(image, data: data, forKey: key)

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-benchmark-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
let disk = WebImageCache(namespace: "benchmark", directory: directory, config: WebImageCache.Config(shouldCacheImagesInMemory: false), coder: CodersManager.shared)
try await disk.store(image, data: data, forKey: key)

let layered = redis.makeLayeredCache()
_ = await layered.queryImage(forKey: key)  // promoted into memory

let dataOnly: WebImageOptions = [.avoidDecodeImage]
let none = WebImageContext()
let rows: [(String, [Double])] = [
    ("Redis hit, data only (GET)", await measure { await redis.queryImage(forKey: key, options: dataOnly, context: none, cacheType: .all)?.data != nil }),
    ("Disk hit, data only (WebImageCache, memory off)", await measure { await disk.queryImage(forKey: key, options: dataOnly, context: none, cacheType: .disk)?.data != nil }),
    ("Redis hit, decoded", await measure { await redis.queryImage(forKey: key)?.image != nil }),
    ("Disk hit, decoded (WebImageCache, memory off)", await measure { await disk.queryImage(forKey: key, cacheType: .disk)?.image != nil }),
    ("Layered memory hit (MemoryCache in front of Redis)", await measure { await layered.queryImage(forKey: key)?.cacheType == .memory }),
]

print("Image: 512x512 JPEG, \(data.count) bytes; \(iterations) sequential queries each; Redis \(redisServer.port) on 127.0.0.1")
print("")
print("| query | median (µs) | p95 (µs) |")
print("|---|---:|---:|")
for (name, samples) in rows {
    print("| \(name) | \(String(format: "%.1f", percentile(samples, 0.5))) | \(String(format: "%.1f", percentile(samples, 0.95))) |")
}
