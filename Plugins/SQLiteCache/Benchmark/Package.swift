// swift-tools-version: 6.0
//
// The read/write benchmark of the SQLite cache against the built-in DiskCache: not part of the
// plug-in, not run by CI. Run in release mode:
//
//     cd Plugins/SQLiteCache/Benchmark && swift run -c release --scratch-path .build-bench
import PackageDescription

let package = Package(
    name: "SQLiteCacheBenchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "SQLiteCache", path: ".."),
        .package(name: "SwiftWebImage", path: "../../.."),
    ],
    targets: [
        .executableTarget(
            name: "SQLiteCacheBenchmark",
            dependencies: [
                .product(name: "SQLiteCache", package: "SQLiteCache"),
                .product(name: "WebImageCaches", package: "SwiftWebImage"),
                .product(name: "WebImageCore", package: "SwiftWebImage"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
