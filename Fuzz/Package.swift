// swift-tools-version: 6.0
//
// libFuzzer harnesses for every decoder: the built-in coders of WebImageCoders and the coder
// plug-ins (WebP, AVIF, HEIF, JPEG XL, TIFF, ICO, SVG, PDF), one executable per decoder. A separate development
// package (it is built with -sanitize=fuzzer,address, which must not reach the root package's own
// builds), not run by CI. It depends on the root package by path, as any package would by URL,
// and uses only its library products. Run `Fuzz/fuzz.sh`.
import PackageDescription

let root = "SwiftWebImage"

/// One harness: an executable target `Fuzz<name>` on FuzzSupport and the products it decodes with.
func harness(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: "Fuzz\(name)",
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: root) }
    )
}

let package = Package(
    name: "WebImageFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: root, path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "WebImageCore", package: root)]),
        harness("PNG", ["WebImageCoders"]),
        harness("JPEG", ["WebImageCoders"]),
        harness("GIF", ["WebImageCoders"]),
        harness("BMP", ["WebImageCoders"]),
        harness("WebP", ["WebPCoder"]),
        harness("AVIF", ["AVIFCoder"]),
        harness("HEIF", ["HEIFCoder"]),
        harness("JXL", ["JXLCoder"]),
        harness("TIFF", ["TIFFCoder"]),
        harness("ICO", ["ICOCoder"]),
        harness("SVG", ["SVGCoder", "WebImageCore"]),
        harness("PDF", ["PDFCoder", "WebImageCore"]),
        // ICC profiles straight into the colour path (WebImageColor, lcms2).
        harness("ICC", ["WebImageColor", "WebImageCore"]),
    ]
)
