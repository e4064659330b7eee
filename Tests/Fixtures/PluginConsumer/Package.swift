// swift-tools-version: 6.0
//
// A package outside the plug-in folders that uses every plug-in product of SwiftWebImage the way
// a third party would: it depends on the root package by path (exactly as it would by URL,
// `.package(url: "https://.../SwiftWebImage.git", from: "...")`) and names the products:
// `.product(name: "WebPCoder", package: "SwiftWebImage")`. `.ci/run` builds and runs it:
//
//     swift run --package-path Tests/Fixtures/PluginConsumer PluginConsumer
//
// It prints one line per plug-in and exits 1 if any of them does not work.
import PackageDescription

let package = Package(
    name: "PluginConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "SwiftWebImage", path: "../../..")],
    targets: [
        .executableTarget(
            name: "PluginConsumer",
            dependencies: [
                .product(name: "SwiftWebImage", package: "SwiftWebImage"),
                .product(name: "WebPCoder", package: "SwiftWebImage"),
                .product(name: "RedisCache", package: "SwiftWebImage"),
                .product(name: "SQLiteCache", package: "SwiftWebImage"),
                .product(name: "PhotosLoader", package: "SwiftWebImage"),
                .product(name: "AVIFCoder", package: "SwiftWebImage"),
                .product(name: "HEIFCoder", package: "SwiftWebImage"),
                .product(name: "JXLCoder", package: "SwiftWebImage"),
                .product(name: "TIFFCoder", package: "SwiftWebImage"),
                .product(name: "ICOCoder", package: "SwiftWebImage"),
                .product(name: "SVGCoder", package: "SwiftWebImage"),
                .product(name: "PDFCoder", package: "SwiftWebImage"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
