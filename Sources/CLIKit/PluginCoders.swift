import Foundation
import SwiftWebImage
import AVIFCoder
import HEIFCoder
import ICOCoder
import JXLCoder
import TIFFCoder
import PDFCoder
import SVGCoder
import WebPCoder

/// The plug-in coders `webimage` registers at launch, each with the sample it adds to the demo.
///
/// The one place the tool learns about plug-in coders: ``WebImageCLI/registerLaunchComponents()``
/// adds every ``all`` entry's coder to ``CodersManager/shared`` (one line per plug-in, as an app
/// would), so `info`, `convert`, `fetch` and `prefetch` read and write its formats, and
/// `webimage demo` serves, loads and shows its sample next to the built-in formats. A new
/// plug-in coder is one more entry here and one in `cliPluginCoders` (Package.swift).
enum PluginCoders {
    /// A plug-in coder and its demo sample.
    struct Entry: Sendable {
        /// The coder, added to ``CodersManager/shared`` at launch.
        let coder: any ImageCoder
        /// Makes the plug-in's demo sample (called once per `webimage demo` run).
        let demoSample: @Sendable () throws -> DemoSamples.Sample
    }

    /// Every plug-in coder, in the order they are added (the one added last is asked first).
    static let all: [Entry] = [
        Entry(coder: WebPCoder()) {
            DemoSamples.Sample(name: "badge.webp", summary: "lossy WebP with alpha (WebPCoder plug-in)", contentType: "image/webp",
                               data: try WebPCoder().encode(WebImage(bitmap: try DemoSamples.badge(size: 192)), as: .webp, options: ImageEncodeOptions(compressionQuality: 0.8)))
        },
        Entry(coder: HEIFCoder()) {
            DemoSamples.Sample(name: "badge.heic", summary: "HEIC with alpha (HEIFCoder plug-in, libheif)", contentType: "image/heic",
                               data: try HEIFCoder().encode(WebImage(bitmap: try DemoSamples.badge(size: 192)), as: .heic, options: ImageEncodeOptions(compressionQuality: 0.8)))
        },
        Entry(coder: JXLCoder()) {
            DemoSamples.Sample(name: "badge.jxl", summary: "lossy JPEG XL with alpha (JXLCoder plug-in, libjxl)", contentType: "image/jxl",
                               data: try JXLCoder().encode(WebImage(bitmap: try DemoSamples.badge(size: 192)), as: .jpegXL, options: ImageEncodeOptions(compressionQuality: 0.8)))
        },
        // Added after HEIFCoder (which also reads AVIF through libheif), so AVIFCoder answers AVIF first.
        Entry(coder: AVIFCoder()) {
            DemoSamples.Sample(name: "badge.avif", summary: "lossy AVIF with alpha (AVIFCoder plug-in, libavif)", contentType: "image/avif",
                               data: try AVIFCoder().encode(WebImage(bitmap: try DemoSamples.badge(size: 192)), as: .avif, options: ImageEncodeOptions(compressionQuality: 0.8)))
        },
        Entry(coder: TIFFCoder()) {
            DemoSamples.Sample(name: "badge.tiff", summary: "deflate TIFF with alpha (TIFFCoder plug-in, libtiff)", contentType: "image/tiff",
                               data: try TIFFCoder().encode(WebImage(bitmap: try DemoSamples.badge(size: 192)), as: .tiff))
        },
        Entry(coder: ICOCoder()) {
            DemoSamples.Sample(name: "badge.ico", summary: "icon of 16, 32, 48 and 192 px PNG entries (ICOCoder plug-in)", contentType: "image/x-icon",
                               data: try ICOCoder(encodedSizes: [16, 32, 48, 192]).encode(WebImage(bitmap: try DemoSamples.badge(size: 192)), as: .ico))
        },
        // Decode-only (vector formats drawn at the size asked for); `webimage serve` leaves them
        // out unless --allow-svg (ServeCommand.coders).
        Entry(coder: SVGCoder()) {
            DemoSamples.Sample(name: "badge.svg", summary: "SVG drawn by librsvg (SVGCoder plug-in)", contentType: "image/svg+xml", data: Data(DemoSamples.badgeSVG.utf8))
        },
        Entry(coder: PDFCoder()) {
            DemoSamples.Sample(name: "badge.pdf", summary: "PDF page drawn by poppler (PDFCoder plug-in)", contentType: "application/pdf", data: DemoSamples.badgePDF)
        },
    ]

    /// The coders' type names, in the order they are added (`WebPCoder`, ...).
    static var names: [String] {
        all.map { String(describing: type(of: $0.coder)) }
    }
}
