// swift-tools-version: 6.0
//
// The libFuzzer harness of the WebP plug-in: not part of the plug-in, not run by CI.
// Build and run with ./fuzz.sh (it passes -sanitize=fuzzer,address).
import PackageDescription

let package = Package(
    name: "WebPCoderFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "WebPCoder", path: ".."),
        .package(name: "SwiftWebImage", path: "../../.."),
    ],
    targets: [
        .executableTarget(
            name: "FuzzWebP",
            dependencies: [
                .product(name: "WebPCoder", package: "WebPCoder"),
                .product(name: "WebImageCore", package: "SwiftWebImage"),
            ]
        ),
    ]
)
