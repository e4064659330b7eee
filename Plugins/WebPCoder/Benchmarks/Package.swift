// swift-tools-version: 6.0
//
// The WebP plug-in's benchmark cases (`webp-decode`, `webp-encode`) against Pillow: the root
// package's benchmark cannot link a plug-in (the root has no package dependencies), so the
// plug-in measures itself with the same cases, inputs and JSON lines as ../../shared/bench.
// Run ./bench.sh (release build). Not run by CI.
import PackageDescription

let package = Package(
    name: "WebPCoderBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "WebPCoder", path: ".."),
        .package(name: "SwiftWebImage", path: "../../.."),
    ],
    targets: [
        .executableTarget(
            name: "WebPBench",
            dependencies: [
                .product(name: "WebPCoder", package: "WebPCoder"),
                .product(name: "SwiftWebImage", package: "SwiftWebImage"),
            ]
        ),
    ]
)
