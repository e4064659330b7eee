// swift-tools-version: 6.0
//
// The libFuzzer harness of the WebP plug-in: a separate development package (it is built with
// -sanitize=fuzzer,address, which must not reach the root package's own builds), not run by CI.
// It depends on the root package by path, as any package would by URL, and uses its
// `WebPCoder` product. Build and run with ./fuzz.sh.
import PackageDescription

let package = Package(
    name: "WebPCoderFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "SwiftWebImage", path: "../../..")],
    targets: [
        .executableTarget(
            name: "FuzzWebP",
            dependencies: [
                .product(name: "WebPCoder", package: "SwiftWebImage"),
                .product(name: "WebImageCore", package: "SwiftWebImage"),
            ]
        ),
    ]
)
