// swift-tools-version: 6.0
//
// The libFuzzer harness of the HEIF coder: not part of the coder, not run by CI.
// Build and run with ./fuzz.sh (it passes -sanitize=fuzzer,address).
import PackageDescription

let package = Package(
    name: "HEIFCoderFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "SwiftWebImage", path: "../../..")],
    targets: [
        .executableTarget(
            name: "FuzzHEIF",
            dependencies: [
                .product(name: "HEIFCoder", package: "SwiftWebImage"),
                .product(name: "WebImageCore", package: "SwiftWebImage"),
            ]
        ),
    ]
)
