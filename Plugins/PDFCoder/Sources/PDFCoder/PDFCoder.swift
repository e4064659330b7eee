public import Foundation
public import WebImageCore
import CPoppler

/// The PDF coder: a page of a PDF document rendered by the system poppler-glib into RGBA8
/// (SDWebImage's `SDImagePDFCoder` counterpart on Linux). It decodes only.
///
/// Register it once at launch:
///
/// ```swift
/// CodersManager.shared.add(PDFCoder())
/// ```
///
/// **Page.** The first page, or the one ``/WebImageCore/WebImageContext/pdfPageIndex`` picks
/// (from 0) in the request's context; ``pageCount(of:)`` tells how many there are.
///
/// **Size.** A page is measured in points (1/72 inch). Without a thumbnail request it is drawn
/// at ``dpi`` dots per inch (default 72: one pixel per point, as SDWebImage and PDFKit treat a
/// page; a US Letter page is 612x792). With `thumbnailPixelSize` it is drawn at that size (aspect
/// kept when `preserveAspectRatio`, the raster coders' rule; larger than the page's own size
/// when asked: it is drawn, not resampled). `scaleDownLimitBytes` shrinks it, and a size over
/// `maxPixelCount` is scaled down until it fits: the size is computed from the page's box and
/// checked before any surface is made, so a 14400x14400-inch page costs no more than the pixel
/// limit. The image is marked ``/WebImageCore/ImageMetadata/vector`` (and
/// ``/WebImageCore/ImageMetadata/thumbnail`` when a request chose the size).
///
/// **Output.** RGBA8, opaque: the page is painted on white paper, as viewers and `pdftoppm` do
/// (``transparentBackground`` keeps what the page leaves unpainted transparent).
///
/// **Security.** Documents that need a password (encrypted with a user password) are refused
/// with ``/WebImageCore/WebImageError/Code/badImageData`` saying so; documents encrypted only
/// with an owner password (restrictions, an empty user password) open as they do in viewers.
/// poppler-glib runs no JavaScript and follows no links or external references. Rendering runs
/// on a thread of its own, and the render may use at most ``renderTimeLimit`` seconds of CPU (and take 4 times that of wall time)
/// (``/WebImageCore/WebImageError/Code/imageTooLarge`` past it): poppler cannot be interrupted, so
/// a render past its limit finishes on its thread and is dropped, and while two such renders
/// still run, new renders are refused at once. poppler's and GLib's messages never reach
/// standard error: they are recorded and added to the errors of the decodes that caused them.
///
/// Thread-safety: a value with no shared state; call it from any thread, concurrently. The
/// caller's thread blocks while the render runs: call it from a decode executor, not from
/// Swift's concurrency pool (the framework's decode stage does).
public struct PDFCoder: ImageCoder, ImageHeaderReader {
    /// Runs the renders, at most 2 of them left running past their time limit before new ones
    /// are refused (the library cannot be interrupted).
    static let renderThread = TimeLimitedRenderThread(maximumOverdue: 2)

    /// The default of ``dpi``: 72 (one pixel per point).
    public static let defaultDPI = 72.0
    /// The default of ``renderTimeLimit``: 10 seconds.
    public static let defaultRenderTimeLimit = 10.0

    /// The resolution of a page drawn without a thumbnail request, in dots per inch.
    public let dpi: Double
    /// The CPU time one render may use, in seconds (``/WebImageCore/TimeLimitedRenderThread``).
    public let renderTimeLimit: Double
    /// Whether what the page leaves unpainted stays transparent (default `false`: white paper).
    public let transparentBackground: Bool

    /// Creates the coder.
    /// - Parameters:
    ///   - dpi: The resolution of pages drawn at their own size (default 72; 1...2400).
    ///   - renderTimeLimit: The CPU time one render may use, in seconds (default 10).
    ///   - transparentBackground: Leave unpainted areas transparent instead of white (default `false`).
    public init(dpi: Double = PDFCoder.defaultDPI, renderTimeLimit: Double = PDFCoder.defaultRenderTimeLimit, transparentBackground: Bool = false) {
        self.dpi = dpi.isFinite ? min(2400, max(1, dpi)) : Self.defaultDPI
        self.renderTimeLimit = renderTimeLimit > 0 ? renderTimeLimit : Self.defaultRenderTimeLimit
        self.transparentBackground = transparentBackground
    }

    /// The version of the poppler the coder runs on (`"22.12.0"`).
    public static var libraryVersion: String { String(cString: poppler_get_version()) }

    // MARK: Decoding

    /// `true` for data that starts with `%PDF` (``/WebImageCore/ImageFormat/pdf``).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(data) == .pdf
    }

    /// Renders the page the context picks (the first by default) at the size the options ask
    /// for (see the type's notes).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not PDF, that
    ///   poppler cannot read, that needs a password, or lacks the page;
    ///   ``/WebImageCore/WebImageError/Code/imageTooLarge`` past ``renderTimeLimit`` or when cairo
    ///   has no memory for the surface.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let what = "PDF data of \(data.count) bytes"
        guard canDecode(data) else { throw WebImageError(.badImageData, "\(what) is not PDF (it does not start with %PDF)") }
        let document = try PDFRendering.read(data, what: what)
        let index = options.context.pdfPageIndex ?? 0
        let points = try PDFRendering.pageSize(document, index: index, what: what)
        let natural = (width: points.width * dpi / 72, height: points.height * dpi / 72)
        let choice = VectorRasterSize.choose(natural: natural, options: options)
        let transparent = transparentBackground
        let bitmap = try Self.renderThread.run(limit: renderTimeLimit, what: what) {
            try PDFRendering.render(document, index: index, points: points, size: choice.size, transparent: transparent, what: what)
        }
        var metadata: ImageMetadata = [.decoded, .vector]
        if choice.isThumbnail { metadata.insert(.thumbnail) }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .pdf, metadata: metadata)
    }

    /// The first page's size as a decode with default options draws it: at ``dpi``, scaled down
    /// to the default pixel limit (so a vector is never described as refused: a decode with a
    /// lower limit draws it smaller), read without rendering.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` as ``decode(_:options:)``.
    public func readProperties(of data: Data) throws -> ImageProperties {
        let what = "PDF data of \(data.count) bytes"
        guard canDecode(data) else { throw WebImageError(.badImageData, "\(what) is not PDF (it does not start with %PDF)") }
        let document = try PDFRendering.read(data, what: what)
        let points = try PDFRendering.pageSize(document, index: 0, what: what)
        let size = VectorRasterSize.choose(natural: (points.width * dpi / 72, points.height * dpi / 72), options: ImageDecodeOptions()).size
        return ImageProperties(format: .pdf, pixelSize: size, hasAlpha: transparentBackground)
    }

    /// The number of pages of the document in `data`.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not PDF, that
    ///   poppler cannot read or that needs a password.
    public func pageCount(of data: Data) throws -> Int {
        let what = "PDF data of \(data.count) bytes"
        guard canDecode(data) else { throw WebImageError(.badImageData, "\(what) is not PDF (it does not start with %PDF)") }
        return try PDFRendering.read(data, what: what).pageCount
    }

    // MARK: Encoding

    /// `false`: the coder does not write PDF.
    public func canEncode(to format: ImageFormat) -> Bool { false }

    /// Always throws: the coder does not write PDF.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat``.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "PDFCoder cannot encode \(format): it only decodes PDF")
    }
}
