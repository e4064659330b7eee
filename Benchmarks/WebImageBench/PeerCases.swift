import Foundation
import SwiftWebImage

/// Cases whose peer is not Pillow: each measures ours and the peer side by side, in this
/// process, on the same keys, values and files.
struct PeerCases {
    let runner: BenchmarkRunner

    struct Result {
        let ours: BenchmarkRunner.Measurement
        let peer: (name: String, measurement: BenchmarkRunner.Measurement)?
        let extra: [String: Double]
    }

    static let names = ["memory-cache-get", "disk-cache-read", "disk-cache-write", "download", "download-small", "manager-memory-hit", "manager-disk-hit"]

    func run(_ name: String) async throws -> Result {
        switch name {
        case "memory-cache-get": return try memoryCacheGet()
        case "disk-cache-read": return try diskCacheRead()
        case "disk-cache-write": return try diskCacheWrite()
        case "download": return try await DownloadCase(runner: runner).run()
        case "download-small": return try await DownloadSmallCase(runner: runner).run()
        case "manager-memory-hit": return try await managerHit(fromDisk: false)
        case "manager-disk-hit": return try await managerHit(fromDisk: true)
        default: throw WebImageError(.invalidArgument, "unknown case \(name)")
        }
    }

    /// 1,000 keys, 200,000 gets per run, against `NSCache` holding the same images.
    private func memoryCacheGet() throws -> Result {
        let keys = (0..<1_000).map { "https://example.com/images/\($0).jpg" }
        let image = WebImage(bitmap: try Bitmap(width: 16, height: 16, fill: .white))
        let ours = MemoryCache()
        let peer = NSCache<NSString, ImageBox>()
        let nsKeys = keys.map { $0 as NSString }
        for (key, nsKey) in zip(keys, nsKeys) {
            ours.setImage(image, forKey: key)
            peer.setObject(ImageBox(image), forKey: nsKey)
        }
        let gets = 200_000
        let oursTime = runner.measure {
            var hits = 0
            for index in 0..<gets where ours.image(forKey: keys[index % keys.count]) != nil { hits += 1 }
            return hits
        }
        let peerTime = runner.measure {
            var hits = 0
            for index in 0..<gets where peer.object(forKey: nsKeys[index % nsKeys.count]) != nil { hits += 1 }
            return hits
        }
        return Result(ours: oursTime, peer: ("NSCache", peerTime), extra: [
            "ns_per_get": oursTime.median * 1e6 / Double(gets),
            "peer_ns_per_get": peerTime.median * 1e6 / Double(gets),
            "goal": 0.2,
        ])
    }

    /// A fresh directory under the system's temporary directory, removed by the caller.
    private func scratchDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func payloads(count: Int = 1_000, size: Int = 100_000) -> [Data] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
    }

    /// 1,000 entries of 100 kB: `DiskCache.data(forKey:)` vs `FileManager.contents(atPath:)` on the same files.
    private func diskCacheRead() throws -> Result {
        let directory = try scratchDirectory("read")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = DiskCache(directory: directory)
        let payloads = Self.payloads()
        let keys = payloads.indices.map { "https://example.com/photos/\($0).jpg" }
        for (key, data) in zip(keys, payloads) { try cache.setData(data, forKey: key) }
        let paths = keys.map { cache.fileURL(forKey: $0).path }
        let ours = runner.measure { keys.reduce(0) { $0 + (cache.data(forKey: $1)?.count ?? 0) } }
        let peer = runner.measure { paths.reduce(0) { $0 + (FileManager.default.contents(atPath: $1)?.count ?? 0) } }
        return Result(ours: ours, peer: ("FileManager", peer), extra: ["goal": 1 / 0.8])
    }

    /// 1,000 entries of 100 kB: `DiskCache.setData` vs `Data.write(to:options: .atomic)`.
    private func diskCacheWrite() throws -> Result {
        let directory = try scratchDirectory("write")
        defer { try? FileManager.default.removeItem(at: directory) }
        let payloads = Self.payloads()
        let keys = payloads.indices.map { "https://example.com/photos/\($0).jpg" }
        var round = 0
        let ours = try runner.measure {
            round += 1
            let cache = DiskCache(directory: directory.appendingPathComponent("ours-\(round)"))
            for (key, data) in zip(keys, payloads) { try cache.setData(data, forKey: key) }
            return round
        }
        let peer = try runner.measure {
            round += 1
            let folder = directory.appendingPathComponent("peer-\(round)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, data) in payloads.enumerated() {
                try data.write(to: folder.appendingPathComponent("\(index).jpg"), options: .atomic)
            }
            return round
        }
        return Result(ours: ours, peer: ("FileManager atomic write", peer), extra: ["goal": 1 / 0.7])
    }

    /// End-to-end `ImageManager` latency of a hit: 200 loads per run of a small JPEG that is in
    /// the memory cache, or (after clearing memory) only on disk. No peer: absolute numbers.
    ///
    /// Besides wall time: CPU time (all threads), context switches and minor page faults per
    /// load (medians of the runs' `getrusage` deltas). The disk case also times its floor:
    /// the same reads, decodes and promotions with no hand-over at all
    /// (`WebImageCache.imageFromDiskCache` on the calling thread, memory cleared the same way),
    /// so `us_per_load - floor_us_per_load` is what the manager and the executors add.
    private func managerHit(fromDisk: Bool) async throws -> Result {
        let directory = try scratchDirectory("manager")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = WebImageCache(namespace: "bench", directory: directory, coder: CodersManager.shared)
        let manager = ImageManager(cache: cache, loader: LoadersManager())
        let image = WebImage(bitmap: try Bitmap(width: 256, height: 256, fill: RGBAColor(red: 200, green: 100, blue: 50)))
        let data = try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.8))
        let urls = (0..<200).map { URL(string: "https://example.com/hit/\($0).jpg")! }
        for url in urls { try await cache.store(image, data: data, forKey: url.absoluteString) }
        // A memory hit is a few hundred nanoseconds: each sample makes 50 passes over the URLs.
        let passes = fromDisk ? 1 : 50
        let loads = Double(urls.count * passes)
        let (measurement, usage) = try await runner.measureAsyncWithUsage {
            if fromDisk { await cache.clear(cacheType: .memory) }
            var pixels = 0
            for _ in 0..<passes {
                for url in urls { pixels += try await manager.loadImage(with: url).image?.pixelSize.width ?? 0 }
            }
            return pixels
        }
        var extra = [
            "us_per_load": measurement.median * 1000 / loads,
            "cpu_us_per_load": usage.cpuMilliseconds * 1000 / loads,
            "csw_per_load": usage.contextSwitches / loads,
            "faults_per_load": usage.minorFaults / loads,
        ]
        if fromDisk {
            let keys = urls.map(\.absoluteString)
            let (floor, floorUsage) = await runner.measureAsyncWithUsage {
                await cache.clear(cacheType: .memory)
                return keys.reduce(0) { $0 + (cache.imageFromDiskCache(forKey: $1)?.pixelSize.width ?? 0) }
            }
            extra["floor_us_per_load"] = floor.median * 1000 / loads
            extra["floor_cpu_us_per_load"] = floorUsage.cpuMilliseconds * 1000 / loads
            extra["floor_faults_per_load"] = floorUsage.minorFaults / loads
        } else {
            // Issue 35: a hit through the manager costs at most 5x the memory cache's own get of
            // the same keys, measured here in the same run; the completion API too.
            let keys = urls.map(\.absoluteString)
            let memory = cache.memoryCache
            let get = runner.measure {
                var pixels = 0
                for _ in 0..<passes {
                    for key in keys { pixels += memory.image(forKey: key)?.pixelSize.width ?? 0 }
                }
                return pixels
            }
            let completion = runner.measure {
                let pixels = Locked(0)
                for _ in 0..<passes {
                    for url in urls {
                        _ = manager.loadImage(with: url) { result in
                            let width = (try? result.get())?.image?.pixelSize.width ?? 0
                            pixels.withLock { $0 += width }
                        }
                    }
                }
                return pixels.withLock { $0 }
            }
            let getNanoseconds = get.median * 1_000_000 / loads
            extra["get_ns"] = getNanoseconds
            extra["completion_us_per_load"] = completion.median * 1000 / loads
            extra["ratio_to_get"] = measurement.median * 1_000_000 / loads / getNanoseconds
            extra["completion_ratio_to_get"] = completion.median * 1_000_000 / loads / getNanoseconds
            extra["goal_ratio_to_get"] = 5
        }
        return Result(ours: measurement, peer: nil, extra: extra)
    }
}

/// An image as an object, for `NSCache`.
final class ImageBox {
    let image: WebImage
    init(_ image: WebImage) { self.image = image }
}
