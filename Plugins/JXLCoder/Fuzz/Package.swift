// swift-tools-version: 6.0
//
// The libFuzzer harness of the JPEG XL plug-in: not part of the plug-in, not run by CI.
// Build and run with ./fuzz.sh (it passes -sanitize=fuzzer,address).
import PackageDescription

let package = Package(
    name: "JXLCoderFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "SwiftWebImage", path: "../../..")],
    targets: [
        .executableTarget(
            name: "FuzzJXL",
            dependencies: [
                .product(name: "JXLCoder", package: "SwiftWebImage"),
                .product(name: "WebImageCore", package: "SwiftWebImage"),
            ]
        ),
    ]
)
