// swift-tools-version: 6.0
//
// SQLiteCache: a plug-in package that adds an image cache kept in one SQLite database (small
// values inline, large ones in files beside it) to SwiftWebImage: SDWebImage's "swap in a
// third-party cache" story (its YYCache and PINCache plug-ins). It depends on the root package
// by path and sees only its public API: the proof that a cache needs no change to the core.
//
// System library (Debian: `apt-get install libsqlite3-dev`, which brings libsqlite3 and its
// pkg-config file `sqlite3.pc`).
import PackageDescription

/// Swift 6 language mode (the tools version's default) with complete strict concurrency, and the
/// upcoming features the root package uses.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SQLiteCache",
    platforms: [.macOS(.v15)],
    products: [.library(name: "SQLiteCache", targets: ["SQLiteCache"])],
    dependencies: [.package(name: "SwiftWebImage", path: "../..")],
    targets: [
        // The system SQLite (3.24 or later: the cache uses upserts; 3.35 or later: RETURNING).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(
            name: "SQLiteCache",
            dependencies: [
                "CSQLite",
                .product(name: "WebImageCore", package: "SwiftWebImage"),
                .product(name: "WebImageCaches", package: "SwiftWebImage"),
                // For the default coder: the shared CodersManager with the built-in coders.
                .product(name: "SwiftWebImage", package: "SwiftWebImage"),
            ],
            swiftSettings: strictSettings
        ),
        // A helper process for the SIGKILL test, and nothing else: it writes entries and reports
        // each completed write on stdout until the test kills it.
        .executableTarget(
            name: "SQLiteCrashWriter",
            dependencies: ["SQLiteCache", .product(name: "WebImageTestSupport", package: "SwiftWebImage")],
            path: "Tests/SQLiteCrashWriter",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SQLiteCacheTests",
            dependencies: [
                "SQLiteCache", "SQLiteCrashWriter", "CSQLite",
                .product(name: "SwiftWebImage", package: "SwiftWebImage"),
                .product(name: "WebImageTestSupport", package: "SwiftWebImage"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
