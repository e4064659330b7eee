// swift-tools-version: 6.0
//
// PhotosLoader: a plug-in package that serves a local photo library (a folder tree of photos,
// like ~/Pictures or the import folder of a self-hosted gallery) to SwiftWebImage through
// `photos://` URLs that address images by stable asset identifier, not by file URL: the
// counterpart of SDWebImage's Photos plug-in (`ph://` assets of the device photo library).
//
// It depends on the root package by path and sees only its public API. No system library and no
// other package: EXIF, TIFF and the image headers are parsed by the plug-in itself; pixels are
// decoded by the root package's coders.
import PackageDescription

/// Swift 6 language mode (the tools version's default) with complete strict concurrency, and the
/// upcoming features the root package uses.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "PhotosLoader",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PhotosLoader", targets: ["PhotosLoader"]),
        .executable(name: "photos-bench", targets: ["photos-bench"]),
    ],
    dependencies: [.package(name: "SwiftWebImage", path: "../..")],
    targets: [
        // The umbrella product: the loader decodes JPEG with `JPEGCoder` (WebImageCoders) and every
        // other format with `CodersManager.shared` (declared in the umbrella module).
        .target(
            name: "PhotosLoader",
            dependencies: [.product(name: "SwiftWebImage", package: "SwiftWebImage")],
            swiftSettings: strictSettings
        ),
        // Times the three JPEG paths (embedded thumbnail, DCT-scaled decoding, full decoding) on a
        // generated 4000x3000 photo: `swift run -c release photos-bench`.
        .executableTarget(
            name: "photos-bench",
            dependencies: ["PhotosLoader", .product(name: "SwiftWebImage", package: "SwiftWebImage")],
            path: "Benchmarks/PhotosBench",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PhotosLoaderTests",
            dependencies: [
                "PhotosLoader",
                .product(name: "SwiftWebImage", package: "SwiftWebImage"),
                .product(name: "WebImageTestSupport", package: "SwiftWebImage"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
