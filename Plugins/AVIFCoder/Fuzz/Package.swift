// swift-tools-version: 6.0
//
// The libFuzzer harness of the AVIF plug-in: not part of the plug-in, not run by CI.
// Build and run with ./fuzz.sh (it passes -sanitize=fuzzer,address). It depends on the root
// package by path, as a package using the AVIFCoder product by URL would.
import PackageDescription

let package = Package(
    name: "AVIFCoderFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "SwiftWebImage", path: "../../.."),
    ],
    targets: [
        .executableTarget(
            name: "FuzzAVIF",
            dependencies: [
                .product(name: "AVIFCoder", package: "SwiftWebImage"),
                .product(name: "WebImageCore", package: "SwiftWebImage"),
            ]
        ),
    ]
)
