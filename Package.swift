// swift-tools-version: 6.0
//
// SwiftWebImage: the root package. It has NO package dependencies (a hard constraint of the
// project). System C libraries (zlib, libjpeg-turbo, libpng) come in through system-library
// targets; anything else lives in a plug-in package under Plugins/<Name>/.
import PackageDescription

/// Swift 6 language mode (the tools version's default) with complete strict concurrency.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SwiftWebImage",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwiftWebImage", targets: ["SwiftWebImage"]),
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        .library(name: "WebImageCoders", targets: ["WebImageCoders"]),
        .library(name: "WebImageCaches", targets: ["WebImageCaches"]),
        .library(name: "WebImageLoaders", targets: ["WebImageLoaders"]),
        .library(name: "WebImageTransformers", targets: ["WebImageTransformers"]),
        // Mocks and contract suites, public so that plug-in packages can run the same contracts.
        .library(name: "WebImageTestSupport", targets: ["WebImageTestSupport"]),
        .executable(name: "webimage", targets: ["webimage"]),
        // Release-mode benchmarks against Pillow, NSCache, FileManager and curl (scripts/bench).
        .executable(name: "webimage-bench", targets: ["webimage-bench"]),
    ],
    targets: [
        .target(name: "WebImageCore", path: "Sources/Core", swiftSettings: strictSettings),
        .target(name: "WebImageCoders", dependencies: ["WebImageCore", "CJPEGShim", "CZlib"], path: "Sources/Coders", swiftSettings: strictSettings),
        // System libraries of the coders (headers in /usr/include; .ci/run installs the Debian packages).
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // The setjmp-based error exit of libjpeg and its warnings, kept on the C side.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"], path: "Sources/CJPEGShim", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "WebImageCaches", dependencies: ["WebImageCore"], path: "Sources/Caches", swiftSettings: strictSettings),
        .target(name: "WebImageLoaders", dependencies: ["WebImageCore", "CCurl"], path: "Sources/Loaders", swiftSettings: strictSettings),
        // libcurl, the Downloader's transport (multi interface, one event-loop thread).
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .target(name: "WebImageTransformers", dependencies: ["WebImageCore"], path: "Sources/Transformers", swiftSettings: strictSettings),
        .target(
            name: "SwiftWebImage",
            dependencies: ["WebImageCore", "WebImageCoders", "WebImageCaches", "WebImageLoaders", "WebImageTransformers"],
            path: "Sources/SwiftWebImage",
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "webimage", dependencies: ["WebImageCLIKit"], path: "Sources/CLI", swiftSettings: strictSettings),
        // The webimage commands as a library: the executable is one line over it, and its tests
        // call the parsers in process and run the built executable as a subprocess.
        .target(name: "WebImageCLIKit", dependencies: ["SwiftWebImage", "WebImageLoopbackServer"], path: "Sources/CLIKit", swiftSettings: strictSettings),
        .executableTarget(
            name: "webimage-bench",
            dependencies: ["SwiftWebImage", "WebImageLoopbackServer"],
            path: "Benchmarks/WebImageBench",
            swiftSettings: strictSettings
        ),
        // A loopback HTTP/1.1 server (127.0.0.1 only) for tests, the demo and the benchmark.
        .target(name: "WebImageLoopbackServer", dependencies: ["WebImageCore"], path: "Sources/LoopbackServer", swiftSettings: strictSettings),
        .target(name: "WebImageTestSupport", dependencies: ["WebImageCore", "WebImageLoopbackServer"], path: "Sources/WebImageTestSupport", swiftSettings: strictSettings),

        .testTarget(name: "WebImageCoreTests", dependencies: ["WebImageCore", "WebImageTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "WebImageCodersTests", dependencies: ["WebImageCoders", "WebImageTestSupport"], swiftSettings: strictSettings),
        .executableTarget(name: "CacheCrashWriter", dependencies: ["WebImageCaches", "WebImageTestSupport"], path: "Tests/CacheCrashWriter", swiftSettings: strictSettings),
        .testTarget(name: "WebImageCachesTests", dependencies: ["WebImageCaches", "WebImageTestSupport", "CacheCrashWriter"], swiftSettings: strictSettings),
        .testTarget(name: "WebImageLoadersTests", dependencies: ["WebImageLoaders", "WebImageTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "WebImageTransformersTests", dependencies: ["WebImageTransformers", "WebImageTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "SwiftWebImageTests", dependencies: ["SwiftWebImage", "WebImageTestSupport"], swiftSettings: strictSettings),
        // Depends on the executable so that it is built with the tests (they run it as a subprocess).
        .testTarget(name: "WebImageCLITests", dependencies: ["WebImageCLIKit", "WebImageTestSupport", "webimage"], swiftSettings: strictSettings),
    ]
)
