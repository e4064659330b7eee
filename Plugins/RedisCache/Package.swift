// swift-tools-version: 6.0
//
// RedisCache: a plug-in package that adds a distributed ImageCache on Redis to SwiftWebImage,
// so that a fleet of image servers shares what any of them fetched. It depends on the root
// package by path and sees only its public API: the proof that a cache needs no change to the
// core. It has no other package dependency: its Redis client (RESP2 over TCP, on POSIX
// sockets) lives inside the plug-in.
//
// System packages: none to build. The tests and the benchmark start a real `redis-server`
// (Debian: `apt-get install redis-server`); the tests that need it skip when it is missing.
import PackageDescription

/// Swift 6 language mode (the tools version's default) with complete strict concurrency, and the
/// upcoming features the root package uses.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "RedisCache",
    platforms: [.macOS(.v15)],
    products: [.library(name: "RedisCache", targets: ["RedisCache"])],
    dependencies: [.package(name: "SwiftWebImage", path: "../..")],
    targets: [
        // The cache and its Redis client. MemoryCache (WebImageCaches) is the front tier of the
        // recommended layered setup.
        .target(
            name: "RedisCache",
            dependencies: [
                .product(name: "WebImageCore", package: "SwiftWebImage"),
                .product(name: "WebImageCaches", package: "SwiftWebImage"),
            ],
            swiftSettings: strictSettings
        ),
        // Starts and stops a throw-away redis-server on a free loopback port, and fake servers
        // that never answer (tests and the benchmark; never connects beyond 127.0.0.1).
        .target(
            name: "RedisServerHarness",
            dependencies: [.product(name: "WebImageCore", package: "SwiftWebImage")],
            path: "Tests/RedisServerHarness",
            swiftSettings: strictSettings
        ),
        // A second process for the fleet test: loads one URL through its own ImageManager.
        .executableTarget(
            name: "RedisCacheProbe",
            dependencies: ["RedisCache", .product(name: "SwiftWebImage", package: "SwiftWebImage")],
            path: "Tests/RedisCacheProbe",
            swiftSettings: strictSettings
        ),
        // Release-mode latency of a Redis hit next to a local disk hit:
        // `swift run -c release RedisCacheBenchmark`.
        .executableTarget(
            name: "RedisCacheBenchmark",
            dependencies: [
                "RedisCache", "RedisServerHarness",
                .product(name: "SwiftWebImage", package: "SwiftWebImage"),
            ],
            path: "Benchmarks/RedisCacheBenchmark",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RedisCacheTests",
            dependencies: [
                "RedisCache", "RedisServerHarness", "RedisCacheProbe",
                .product(name: "SwiftWebImage", package: "SwiftWebImage"),
                .product(name: "WebImageTestSupport", package: "SwiftWebImage"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
