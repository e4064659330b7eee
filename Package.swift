// swift-tools-version: 6.0
//
// SwiftWebImage: the root package. It has NO package dependencies (a hard constraint of the
// project). System C libraries come in through system-library targets with pkg-config and
// apt/brew providers (the README's install line installs every one of them).
//
// Plug-ins (WebP, Redis, SQLite, Photos, ...) are targets and library products of this package,
// so that other packages can depend on them by URL:
//     .product(name: "WebPCoder", package: "SwiftWebImage")
// Each keeps its folder: sources in Plugins/<Name>/Sources/<Module>, its C system libraries in
// Plugins/<Name>/Sources/C<Lib>, its tests in Plugins/<Name>/Tests/<Module>Tests. They are
// declared at the end of this file, one block per plug-in, with `pluginTarget` and friends:
// `packageAccess: false`, so the compiler refuses a plug-in any `package` symbol of the core.
// A plug-in depends only on the core's library products (WebImageCore, SwiftWebImage, ...;
// tests also on WebImageTestSupport), on targets in its own folder and on the shared plug-in
// targets of Plugins/Shared (in no product); `.ci/run` (scripts/check-plugins) enforces these
// rules and forbids `@testable import` of the core.
//
// No package traits (SwiftPM 6.1+) on purpose: SwiftPM builds only the targets behind the
// products a package uses, so a package that does not use AVIFCoder never compiles or links
// libavif; traits would add nothing for such a package, would raise the minimum tools version
// to 6.1, and would make a product's API depend on build flags. The price: building
// everything here (`swift build`, `swift test`, the `webimage` tool, which registers every
// plug-in coder) needs every C library of the README's install line.
import PackageDescription

/// Swift 6 language mode (the tools version's default) with complete strict concurrency.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The plug-in coders the `webimage` tool registers at launch (Sources/CLIKit/PluginCoders.swift
/// lists them too): `info`, `convert`, `fetch` and the demo see their formats.
let cliPluginCoders: [Target.Dependency] = [
    "WebPCoder",
    "HEIFCoder",
    "JXLCoder",
    "AVIFCoder",
    "TIFFCoder",
    "ICOCoder",
    "SVGCoder",
    "PDFCoder",
]

let package = Package(
    name: "SwiftWebImage",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwiftWebImage", targets: ["SwiftWebImage"]),
        .library(name: "WebImageCore", targets: ["WebImageCore"]),
        .library(name: "WebImageCoders", targets: ["WebImageCoders"]),
        .library(name: "WebImageColor", targets: ["WebImageColor"]),
        .library(name: "WebImageCaches", targets: ["WebImageCaches"]),
        .library(name: "WebImageLoaders", targets: ["WebImageLoaders"]),
        .library(name: "WebImageTransformers", targets: ["WebImageTransformers"]),
        // Mocks and contract suites, public so that plug-in packages can run the same contracts.
        .library(name: "WebImageTestSupport", targets: ["WebImageTestSupport"]),
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
        .library(name: "WebImageServe", targets: ["WebImageServe"]),
        .library(name: "WebImageHTTPServer", targets: ["WebImageHTTPServer"]),
        .executable(name: "webimage", targets: ["webimage"]),
        // Release-mode benchmarks against Pillow, NSCache, FileManager and curl (scripts/bench).
        .executable(name: "webimage-bench", targets: ["webimage-bench"]),
        // The child process of scripts/png-thumbnail-bench (issues 21, 36).
        .executable(name: "webimage-thumbnail-probe", targets: ["webimage-thumbnail-probe"]),
    ],
    targets: [
        .target(name: "WebImageCore", path: "Sources/Core", swiftSettings: strictSettings),
        .target(name: "WebImageCoders", dependencies: ["WebImageCore", "WebImageColor", "CJPEGShim", "CZlib", "CDeflate", "CLCMS2"], path: "Sources/Coders", swiftSettings: strictSettings),
        // System libraries of the coders (headers in /usr/include; .ci/run installs the Debian packages).
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // Colour management: embedded profiles to sRGB (issue 31). Its own product, so that a
        // plug-in coder needs lcms2 and not the built-in coders' libraries.
        .target(name: "WebImageColor", dependencies: ["WebImageCore", "CLCMS2"], path: "Sources/Color", swiftSettings: strictSettings),
        // Little CMS 2.
        .systemLibrary(name: "CLCMS2", path: "Sources/CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
        // libdeflate: a complete PNG's image data inflated in one call (zlib stays for streaming).
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        // The setjmp-based error exit of libjpeg and its warnings, kept on the C side.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"], path: "Sources/CJPEGShim", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "WebImageCaches", dependencies: ["WebImageCore"], path: "Sources/Caches", swiftSettings: strictSettings),
        // CZlib: bodies sent gzip or deflate though identity was asked for are inflated by the
        // downloader itself (libcurl 7.88 decodes only what CURLOPT_ACCEPT_ENCODING asks for).
        .target(name: "WebImageLoaders", dependencies: ["WebImageCore", "CCurl", "CZlib"], path: "Sources/Loaders", swiftSettings: strictSettings),
        // libcurl, the Downloader's transport (multi interface, one event-loop thread).
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .target(name: "WebImageTransformers", dependencies: ["WebImageCore"], path: "Sources/Transformers", swiftSettings: strictSettings),
        // The image server's handler (thumbor-style URLs, the pipeline, caches, metrics): no HTTP library.
        .target(name: "WebImageServer", dependencies: ["SwiftWebImage", "CMalloc"], path: "Sources/Server", swiftSettings: strictSettings),
        // CMalloc: glibc's mallopt and malloc_trim (malloc.h), for the serving memory budget.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // An HTTP/1.1 server on libmicrohttpd that runs any ServerRequestHandler (`webimage serve`).
        .target(name: "WebImageHTTPServer", dependencies: ["WebImageServer", "CMicroHTTPD"], path: "Sources/HTTPServer", swiftSettings: strictSettings),
        // Serving as a whole (issue 32): the configuration with its defaults, the cache topology
        // and memory split, Redis layering, the access log; `webimage serve` only parses into it.
        .target(name: "WebImageServe", dependencies: ["SwiftWebImage", "WebImageServer", "WebImageHTTPServer", "RedisCache", "CMalloc"], path: "Sources/Serve", swiftSettings: strictSettings),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        .target(
            name: "SwiftWebImage",
            dependencies: ["WebImageCore", "WebImageColor", "WebImageCoders", "WebImageCaches", "WebImageLoaders", "WebImageTransformers"],
            path: "Sources/SwiftWebImage",
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "webimage", dependencies: ["WebImageCLIKit"], path: "Sources/CLI", swiftSettings: strictSettings),
        // The webimage commands as a library: the executable is one line over it, and its tests
        // call the parsers in process and run the built executable as a subprocess.
        // `serve` runs WebImageServer's handler on WebImageHTTPServer, with the RedisCache plug-in
        // for `--redis` (a plug-in target of this package, as the plug-in coders are).
        .target(
            name: "WebImageCLIKit",
            dependencies: ["SwiftWebImage", "WebImageLoopbackServer", "WebImageServer", "WebImageHTTPServer", "WebImageServe", "RedisCache"] + cliPluginCoders,
            path: "Sources/CLIKit",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "webimage-bench",
            dependencies: ["SwiftWebImage", "WebImageLoopbackServer", "JXLCoder"],
            path: "Benchmarks/WebImageBench",
            swiftSettings: strictSettings
        ),
        // The child process of scripts/download-limits: one download, linking only the core and
        // the loaders, so that its peak RSS is the download's.
        .executableTarget(name: "webimage-download-probe", dependencies: ["WebImageCore", "WebImageLoaders"], path: "Benchmarks/DownloadProbe", swiftSettings: strictSettings),
        // The child process of scripts/png-thumbnail-bench: one thumbnail or full decode, linking
        // only the core and the coders, so that its peak RSS is the decode's and not the shared
        // libraries of every plug-in webimage-bench links (34 MB of mapped code).
        .executableTarget(name: "webimage-thumbnail-probe", dependencies: ["WebImageCore", "WebImageCoders"], path: "Benchmarks/ThumbnailProbe", swiftSettings: strictSettings),
        // A loopback HTTP/1.1 server (127.0.0.1 only) for tests, the demo and the benchmark.
        .target(name: "WebImageLoopbackServer", dependencies: ["WebImageCore"], path: "Sources/LoopbackServer", swiftSettings: strictSettings),
        .target(name: "WebImageTestSupport", dependencies: ["WebImageCore", "WebImageLoopbackServer", "CLCMS2", "CZlib", "CJPEG"], path: "Sources/WebImageTestSupport", swiftSettings: strictSettings),

        .testTarget(name: "WebImageCoreTests", dependencies: ["WebImageCore", "WebImageTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "WebImageCodersTests", dependencies: ["WebImageCoders", "WebImageColor", "WebImageTestSupport", "CLCMS2", "CZlib"], swiftSettings: strictSettings),
        .executableTarget(name: "CacheCrashWriter", dependencies: ["WebImageCaches", "WebImageTestSupport"], path: "Tests/CacheCrashWriter", swiftSettings: strictSettings),
        .testTarget(name: "WebImageCachesTests", dependencies: ["WebImageCaches", "WebImageTestSupport", "CacheCrashWriter"], swiftSettings: strictSettings),
        // Depends on the probe so that it is built with the tests (the proxy tests run it as a child).
        .testTarget(name: "WebImageLoadersTests", dependencies: ["WebImageLoaders", "WebImageTestSupport", "webimage-download-probe", "CZlib"], swiftSettings: strictSettings),
        .testTarget(name: "WebImageTransformersTests", dependencies: ["WebImageTransformers", "WebImageTestSupport"], swiftSettings: strictSettings),
        // WebPCoder and AVIFCoder: the serving tests negotiate and encode those formats;
        // HEIFCoder: shrink-on-load reads HEIF sources' stored thumbnails.
        .testTarget(name: "WebImageServerTests", dependencies: ["WebImageServer", "WebImageTestSupport", "WebPCoder", "AVIFCoder", "HEIFCoder"], swiftSettings: strictSettings),
        .testTarget(name: "WebImageServeTests", dependencies: ["WebImageServe", "WebImageTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "WebImageHTTPServerTests", dependencies: ["WebImageHTTPServer", "WebImageTestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "SwiftWebImageTests", dependencies: ["SwiftWebImage", "WebImageTestSupport"], swiftSettings: strictSettings),
        // Depends on the executable so that it is built with the tests (they run it as a subprocess).
        // RedisServerHarness: the serve fleet test starts a throw-away redis-server with it.
        .testTarget(name: "WebImageCLITests", dependencies: ["WebImageCLIKit", "WebImageTestSupport", "webimage", "RedisServerHarness"], swiftSettings: strictSettings),
    ]
)

// MARK: - Plug-ins
//
// One block per plug-in, each a library product of the root. Every Swift target of a plug-in has
// `packageAccess: false` and depends only on the core's library products, on targets in its
// own folder and on those of Plugins/Shared (scripts/check-plugins, run by .ci/run, checks it). Benchmarks and test helpers
// (servers, second processes) are targets too; `swift test` runs every plug-in's tests.

/// A plug-in's Swift target: `packageAccess: false` (no `package` symbol of the core), strict settings.
func pluginTarget(_ name: String, path: String, dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, path: path, packageAccess: false, swiftSettings: strictSettings)
}

/// A plug-in's executable (a benchmark, or a second process its tests run): as `pluginTarget`.
func pluginExecutable(_ name: String, path: String, dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: path, packageAccess: false, swiftSettings: strictSettings)
}

/// A plug-in's test target: as `pluginTarget`; it may `@testable import` its own plug-in only.
func pluginTests(_ name: String, path: String, dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, path: path, packageAccess: false, swiftSettings: strictSettings)
}

// WebPCoder: WebP (still, animated, progressive; lossy and lossless encoding) on the system
// libwebp, libwebpdemux and libwebpmux (Debian: libwebp-dev). CWebP declares all of their
// headers in one Clang module; the other two only link their library (see CWebP/shim.h).
package.products += [.library(name: "WebPCoder", targets: ["WebPCoder"])]
package.targets += [
    .systemLibrary(name: "CWebP", path: "Plugins/WebPCoder/Sources/CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
    .systemLibrary(name: "CWebPDemux", path: "Plugins/WebPCoder/Sources/CWebPDemux", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
    .systemLibrary(name: "CWebPMux", path: "Plugins/WebPCoder/Sources/CWebPMux", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
    pluginTarget("WebPCoder", path: "Plugins/WebPCoder/Sources/WebPCoder", dependencies: ["CWebP", "CWebPDemux", "CWebPMux", "WebImageCore", "WebImageColor"]),
    // `webp-decode` and `webp-encode` against Pillow: Plugins/WebPCoder/Benchmarks/bench.sh.
    pluginExecutable("WebPBench", path: "Plugins/WebPCoder/Benchmarks/Sources/WebPBench", dependencies: ["WebPCoder", "SwiftWebImage"]),
    pluginTests("WebPCoderTests", path: "Plugins/WebPCoder/Tests/WebPCoderTests", dependencies: [
        "WebPCoder", "CWebP", "CWebPDemux", "CWebPMux", "SwiftWebImage", "WebImageTestSupport",
    ]),
]

// RedisCache: a distributed ImageCache on Redis (RESP2 over TCP on POSIX sockets, inside the
// plug-in). Nothing to install to build it; its tests and benchmark start a real `redis-server`
// (Debian: redis-server) and the tests that need one skip, saying why, when it is missing.
package.products += [.library(name: "RedisCache", targets: ["RedisCache"])]
package.targets += [
    pluginTarget("RedisCache", path: "Plugins/RedisCache/Sources/RedisCache", dependencies: ["WebImageCore", "WebImageCaches"]),
    // Starts and stops a throw-away redis-server on a free loopback port, and fake servers that
    // never answer (tests and the benchmark; never connects beyond 127.0.0.1).
    // RedisCache: the Sentinel helpers ask the servers with the plug-in's own client.
    pluginTarget("RedisServerHarness", path: "Plugins/RedisCache/Tests/RedisServerHarness", dependencies: ["RedisCache", "WebImageCore", "WebImageTestSupport"]),
    // A second process for the fleet test: loads one URL through its own ImageManager.
    pluginExecutable("RedisCacheProbe", path: "Plugins/RedisCache/Tests/RedisCacheProbe", dependencies: ["RedisCache", "SwiftWebImage"]),
    // Latency of a Redis hit next to a local disk hit: `swift run -c release RedisCacheBenchmark`.
    pluginExecutable("RedisCacheBenchmark", path: "Plugins/RedisCache/Benchmarks/RedisCacheBenchmark", dependencies: [
        "RedisCache", "RedisServerHarness", "SwiftWebImage",
    ]),
    pluginTests("RedisCacheTests", path: "Plugins/RedisCache/Tests/RedisCacheTests", dependencies: [
        "RedisCache", "RedisServerHarness", "RedisCacheProbe", "SwiftWebImage", "WebImageTestSupport",
    ]),
]

// SQLiteCache: an ImageCache kept in one SQLite database (small values inline, large ones in
// files beside it), on the system SQLite 3.35 or later (Debian: libsqlite3-dev).
package.products += [.library(name: "SQLiteCache", targets: ["SQLiteCache"])]
package.targets += [
    .systemLibrary(name: "CSQLite", path: "Plugins/SQLiteCache/Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    // SwiftWebImage for the default coder: the shared CodersManager with the built-in coders.
    pluginTarget("SQLiteCache", path: "Plugins/SQLiteCache/Sources/SQLiteCache", dependencies: [
        "CSQLite", "WebImageCore", "WebImageCaches", "SwiftWebImage",
    ]),
    // A helper process for the SIGKILL test: writes entries and reports each on stdout until killed.
    pluginExecutable("SQLiteCrashWriter", path: "Plugins/SQLiteCache/Tests/SQLiteCrashWriter", dependencies: ["SQLiteCache", "WebImageTestSupport"]),
    // Reads and writes against the built-in DiskCache: `swift run -c release SQLiteCacheBenchmark`.
    pluginExecutable("SQLiteCacheBenchmark", path: "Plugins/SQLiteCache/Benchmark/Sources/SQLiteCacheBenchmark", dependencies: [
        "SQLiteCache", "WebImageCaches", "WebImageCore",
    ]),
    pluginTests("SQLiteCacheTests", path: "Plugins/SQLiteCache/Tests/SQLiteCacheTests", dependencies: [
        "SQLiteCache", "SQLiteCrashWriter", "CSQLite", "SwiftWebImage", "WebImageTestSupport",
    ]),
]

// PhotosLoader: an ImageLoader for a local photo library through `photos://` URLs (stable asset
// identifiers). No system library: EXIF, TIFF and the image headers are parsed by the plug-in;
// pixels are decoded by the core's coders (JPEGCoder, CodersManager.shared).
package.products += [.library(name: "PhotosLoader", targets: ["PhotosLoader"])]
package.targets += [
    pluginTarget("PhotosLoader", path: "Plugins/PhotosLoader/Sources/PhotosLoader", dependencies: ["SwiftWebImage"]),
    // The three JPEG paths (EXIF thumbnail, DCT-scaled, full) on a generated 4000x3000 photo:
    // `swift run -c release photos-bench`.
    pluginExecutable("photos-bench", path: "Plugins/PhotosLoader/Benchmarks/PhotosBench", dependencies: ["PhotosLoader", "SwiftWebImage"]),
    pluginTests("PhotosLoaderTests", path: "Plugins/PhotosLoader/Tests/PhotosLoaderTests", dependencies: [
        "PhotosLoader", "SwiftWebImage", "WebImageTestSupport",
    ]),
]

// HEIFCoder: HEIC/HEIF (and AVIF in HEIF) on the system libheif 1.15+ (Debian: libheif-dev).
package.products += [.library(name: "HEIFCoder", targets: ["HEIFCoder"])]
package.targets += [
    .systemLibrary(name: "CHEIF", path: "Plugins/HEIFCoder/Sources/CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"]), .brew(["libheif"])]),
    pluginTarget("HEIFCoder", path: "Plugins/HEIFCoder/Sources/HEIFCoder", dependencies: ["WebImageCore", "WebImageColor", "CHEIF"]),
    pluginTests("HEIFCoderTests", path: "Plugins/HEIFCoder/Tests/HEIFCoderTests", dependencies: [
        "HEIFCoder", "CHEIF", "SwiftWebImage", "WebImageTestSupport",
    ]),
]
// The benchmark's heic-decode, heic-encode and heic-thumbnail cases.
package.targets.first { $0.name == "webimage-bench" }?.dependencies.append("HEIFCoder")

// JXLCoder: JPEG XL (still, animated, progressive; lossy and lossless encoding) on the system
// libjxl 0.7+ and libjxl_threads (Debian: libjxl-dev).
package.products += [.library(name: "JXLCoder", targets: ["JXLCoder"])]
package.targets += [
    // No pkgConfig: libjxl.pc's cflags carry -DHWY_SHARED_DEFINE (from libhwy), which SwiftPM
    // refuses with a warning on every build; the headers are in the default include path on
    // Debian and Ubuntu, and the module map links jxl and jxl_threads itself (issue 32).
    .systemLibrary(name: "CJXL", path: "Plugins/JXLCoder/Sources/CJXL"),
    pluginTarget("JXLCoder", path: "Plugins/JXLCoder/Sources/JXLCoder", dependencies: ["CJXL", "WebImageCore", "WebImageColor"]),
    pluginTests("JXLCoderTests", path: "Plugins/JXLCoder/Tests/JXLCoderTests", dependencies: [
        "JXLCoder", "CJXL", "SwiftWebImage", "WebImageTestSupport",
    ]),
]

// AVIFCoder: AVIF stills and image sequences (lossless and lossy encoding) on the system
// libavif 0.11+ (Debian: libavif-dev). Added after HEIFCoder, so a manager with both asks it
// first for AVIF.
package.products += [.library(name: "AVIFCoder", targets: ["AVIFCoder"])]
package.targets += [
    // No pkgConfig: libavif.pc's cflags carry -DAVIF_DLL (an export macro for Windows DLLs),
    // which SwiftPM refuses with a warning on every build; the module map links avif (issue 32).
    .systemLibrary(name: "CAVIF", path: "Plugins/AVIFCoder/Sources/CAVIF"),
    pluginTarget("AVIFCoder", path: "Plugins/AVIFCoder/Sources/AVIFCoder", dependencies: ["CAVIF", "WebImageCore", "WebImageColor"]),
    pluginTests("AVIFCoderTests", path: "Plugins/AVIFCoder/Tests/AVIFCoderTests", dependencies: [
        "AVIFCoder", "SwiftWebImage", "WebImageTestSupport",
    ]),
]
package.targets.first { $0.name == "webimage-bench" }?.dependencies.append("AVIFCoder")

// webimage-http-bench: the HTTP layer alone (HTTPServer answering a fixed body), for wrk.
package.products += [.executable(name: "webimage-http-bench", targets: ["webimage-http-bench"])]
package.targets += [
    .executableTarget(name: "webimage-http-bench", dependencies: ["WebImageHTTPServer"], path: "Benchmarks/HTTPBench", swiftSettings: strictSettings),
]

// TIFFCoder: TIFF (strips and tiles, 1 to 16 bits, grey, palette, RGB(A), CMYK, multi-page,
// reduced-resolution previews for thumbnails; deflate or LZW encoding) on the system libtiff
// 4.5+ (Debian: libtiff-dev), read from memory with libtiff's messages routed into errors.
package.products += [.library(name: "TIFFCoder", targets: ["TIFFCoder"])]
package.targets += [
    .systemLibrary(name: "CTIFF", path: "Plugins/TIFFCoder/Sources/CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]),
    pluginTarget("TIFFCoder", path: "Plugins/TIFFCoder/Sources/TIFFCoder", dependencies: ["CTIFF", "WebImageCore", "WebImageColor"]),
    pluginTests("TIFFCoderTests", path: "Plugins/TIFFCoder/Tests/TIFFCoderTests", dependencies: [
        "TIFFCoder", "SwiftWebImage", "WebImageTestSupport",
    ]),
]
package.targets.first { $0.name == "webimage-bench" }?.dependencies.append("TIFFCoder")

// ICOCoder: Windows icons and cursors (ICO, CUR) in Swift: PNG entries through the core's
// PNGCoder, headless BMP entries (1/4/8/24/32-bit with the AND mask) read by the plug-in.
package.products += [.library(name: "ICOCoder", targets: ["ICOCoder"])]
package.targets += [
    pluginTarget("ICOCoder", path: "Plugins/ICOCoder/Sources/ICOCoder", dependencies: ["WebImageCore", "WebImageCoders"]),
    pluginTests("ICOCoderTests", path: "Plugins/ICOCoder/Tests/ICOCoderTests", dependencies: [
        "ICOCoder", "SwiftWebImage", "WebImageTestSupport",
    ]),
]

// Plugins/Shared: code that more than one plug-in needs and no core product should carry. Its
// targets are no products (a third party cannot depend on them; they come with the plug-ins
// that use them) and follow the plug-in rules (scripts/check-plugins): `packageAccess: false`,
// only the core's library products and their own folder, so their API is `public`.
// CairoGLibSupport: cairo image surfaces to Bitmaps and GLib's log messages kept per thread,
// for SVGCoder and PDFCoder (one GLib log handler for the process, whichever draws first).
package.targets += [
    // pkgConfig cairo-gobject: cairo's and GLib's include paths, without the -pthread of
    // librsvg-2.0.pc (as CRSVG); the module map links cairo and glib-2.0.
    .systemLibrary(name: "CCairoGLib", path: "Plugins/Shared/Sources/CCairoGLib", pkgConfig: "cairo-gobject", providers: [.apt(["libcairo2-dev", "libglib2.0-dev"]), .brew(["cairo", "glib"])]),
    pluginTarget("CairoGLibSupport", path: "Plugins/Shared/Sources/CairoGLibSupport", dependencies: ["CCairoGLib", "WebImageCore"]),
]

// SVGCoder: SVG rasterised by the system librsvg 2.52+ into a cairo image surface (Debian:
// librsvg2-dev). Decoding only; documents are read from memory with no base URL, so nothing
// outside the data (files, http) is ever loaded.
package.products += [.library(name: "SVGCoder", targets: ["SVGCoder"])]
package.targets += [
    // pkgConfig cairo-gobject, not librsvg-2.0: the latter's cflags carry -pthread, which SwiftPM
    // refuses with a warning on every build (CRSVG/shim.h declares the librsvg calls it needs).
    .systemLibrary(name: "CRSVG", path: "Plugins/SVGCoder/Sources/CRSVG", pkgConfig: "cairo-gobject", providers: [.apt(["librsvg2-dev"]), .brew(["librsvg"])]),
    pluginTarget("SVGCoder", path: "Plugins/SVGCoder/Sources/SVGCoder", dependencies: ["CRSVG", "CairoGLibSupport", "WebImageCore"]),
    pluginTests("SVGCoderTests", path: "Plugins/SVGCoder/Tests/SVGCoderTests", dependencies: [
        "SVGCoder", "SwiftWebImage", "WebImageTestSupport",
    ]),
]
package.targets.first { $0.name == "webimage-bench" }?.dependencies.append("SVGCoder")

// PDFCoder: a page of a PDF rendered by the system poppler-glib into a cairo image surface
// (Debian: libpoppler-glib-dev). Decoding only; encrypted documents are refused.
package.products += [.library(name: "PDFCoder", targets: ["PDFCoder"])]
package.targets += [
    .systemLibrary(name: "CPoppler", path: "Plugins/PDFCoder/Sources/CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"]), .brew(["poppler"])]),
    pluginTarget("PDFCoder", path: "Plugins/PDFCoder/Sources/PDFCoder", dependencies: ["CPoppler", "CairoGLibSupport", "WebImageCore"]),
    pluginTests("PDFCoderTests", path: "Plugins/PDFCoder/Tests/PDFCoderTests", dependencies: [
        "PDFCoder", "SwiftWebImage", "WebImageTestSupport",
    ]),
]
