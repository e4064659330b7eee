// A second server of a fleet, for the fleet test: loads one URL through its own ImageManager
// (a memory cache in front of the shared Redis cache, a downloader), waits for the cache
// store, and prints where the image came from.
//
// Usage: RedisCacheProbe <redis port on 127.0.0.1> <namespace> <url>
// Prints: cacheType=<none|memory|disk|all> size=<width>x<height>
import Foundation
import RedisCache
import SwiftWebImage

let arguments = CommandLine.arguments
guard arguments.count == 4, let port = Int(arguments[1]), let url = URL(string: arguments[3]) else {
    FileHandle.standardError.write(Data("usage: RedisCacheProbe <redis port> <namespace> <url>\n".utf8))
    exit(2)
}
let redis = RedisImageCache(
    configuration: RedisClient.Configuration(host: "127.0.0.1", port: port, connectTimeout: 60, commandTimeout: 60),
    config: RedisImageCache.Config(namespace: arguments[2]),
    coder: CodersManager.shared
)
var downloaderConfiguration = DownloaderConfiguration()
downloaderConfiguration.urlCache = nil
let manager = ImageManager(cache: redis.makeLayeredCache(), loader: Downloader(configuration: downloaderConfiguration, coder: CodersManager.shared))
do {
    let result = try await manager.loadImage(with: url, options: [.waitStoreCache])
    let size = result.image.map { "\($0.pixelSize.width)x\($0.pixelSize.height)" } ?? "none"
    print("cacheType=\(result.cacheType) size=\(size)")
    exit(redis.statistics.droppedStores == 0 ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("load failed: \(error)\n".utf8))
    exit(1)
}
