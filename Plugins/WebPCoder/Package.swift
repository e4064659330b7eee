// swift-tools-version: 6.0
//
// WebPCoder: a plug-in package that adds WebP (still, animated, progressive; lossy and lossless
// encoding) to SwiftWebImage, on the system libwebp. It depends on the root package by path and
// sees only its public API: the proof that a coder needs no change to the core.
//
// System libraries (Debian: `apt-get install libwebp-dev`, which brings libwebp, libwebpdemux
// and libwebpmux with their pkg-config files).
import PackageDescription

/// Swift 6 language mode (the tools version's default) with complete strict concurrency, and the
/// upcoming features the root package uses.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "WebPCoder",
    platforms: [.macOS(.v15)],
    products: [.library(name: "WebPCoder", targets: ["WebPCoder"])],
    dependencies: [.package(name: "SwiftWebImage", path: "../..")],
    targets: [
        // libwebp, libwebpdemux (the container parser) and libwebpmux (WebPAnimEncoder), each
        // found through pkg-config. CWebP declares all of their headers in one Clang module; the
        // other two only link their library (see Sources/CWebP/shim.h for why).
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        .systemLibrary(name: "CWebPDemux", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        .systemLibrary(name: "CWebPMux", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        .target(
            name: "WebPCoder",
            dependencies: [
                "CWebP", "CWebPDemux", "CWebPMux",
                .product(name: "WebImageCore", package: "SwiftWebImage"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebPCoderTests",
            dependencies: [
                "WebPCoder", "CWebP", "CWebPDemux", "CWebPMux",
                .product(name: "SwiftWebImage", package: "SwiftWebImage"),
                .product(name: "WebImageTestSupport", package: "SwiftWebImage"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
