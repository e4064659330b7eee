// swift-tools-version: 6.0
//
// libFuzzer harnesses for the decoders of WebImageCoders: one executable per decoder. Not part
// of the root package or CI; run `Fuzz/fuzz.sh` (it builds with -sanitize=fuzzer,address).
import PackageDescription

let package = Package(
    name: "WebImageFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "SwiftWebImage", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "WebImageCoders", package: "SwiftWebImage")]),
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzJPEG", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzGIF", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzBMP", dependencies: ["FuzzSupport"]),
    ]
)
