public import Foundation
public import WebImageCore
import CRSVG

/// The SVG coder: SVG documents rasterised by the system librsvg (2.52 or later) into RGBA8
/// (SDWebImage's `SDWebImageSVGCoder` plug-in). It decodes only.
///
/// Register it once at launch:
///
/// ```swift
/// CodersManager.shared.add(SVGCoder())
/// ```
///
/// **Size.** A vector has no pixels of its own, so the coder draws it at the size the request
/// asks for:
/// - with `thumbnailPixelSize`, at that size, the aspect ratio kept when `preserveAspectRatio`
///   (the constraining side exactly the request's, as the raster coders do); unlike a raster
///   image it is also drawn larger than its own size when asked (a 64x64 icon request is drawn
///   at 64x64, never at 4000x4000 and resampled; a 1024 request of a 16 px icon is sharp);
/// - else at the document's own size (`width` and `height` at 96 dpi; sides over 32767, cairo's limit, scaled down), or, for a document with
///   only a viewBox, at ``defaultLongSide`` on its long side with the viewBox's aspect ratio
///   (a square of that side without either);
/// - `scaleDownLimitBytes` shrinks it further, and a size over `maxPixelCount` is scaled down
///   until it fits (aspect kept): a declared 100000x100000 document is drawn at the limit, not
///   refused. The image is marked ``/WebImageCore/ImageMetadata/vector``, and
///   ``/WebImageCore/ImageMetadata/thumbnail`` when a request chose the size.
///
/// **Security.** Nothing outside the data is ever read: the document is parsed from memory with
/// no base URL, so `<image href="file:///etc/passwd">`, `http://` images, `<use>` of other
/// files and XInclude load nothing (they draw nothing); `data:` images are drawn (librsvg
/// bounds them). libxml2 keeps its limits (no `RSVG_HANDLE_FLAG_UNLIMITED`), librsvg keeps its
/// own (on reference depth and referenced elements). A document whose `<use>` references would
/// add more than 100,000 elements (the billion-laughs shape: ten uses of ten uses of ...) is
/// refused from a scan of its tags before anything is drawn
/// (``/WebImageCore/WebImageError/Code/imageTooLarge``). Rendering runs on a thread of its own, and the
/// render may use at most ``renderTimeLimit`` seconds of CPU (and take 4 times that of wall time)
/// (``/WebImageCore/WebImageError/Code/imageTooLarge`` past it): librsvg cannot be interrupted,
/// so a render past its limit finishes on its thread and is dropped, and while two such
/// renders still run, new renders are refused at once. GLib's and librsvg's warnings never
/// reach standard error: they are recorded and added to the error of the decode that caused
/// them.
///
/// Output: RGBA8, straight alpha (cairo's premultiplied pixels converted), `hasAlpha` true.
/// gzip-compressed SVG (`.svgz`) is not claimed: ``canDecode(_:)`` sniffs text.
///
/// Thread-safety: a value with no shared state; call it from any thread, concurrently. The
/// caller's thread blocks while the render runs: call it from a decode executor, not from
/// Swift's concurrency pool (the framework's decode stage does).
public struct SVGCoder: ImageCoder, ImageHeaderReader {
    /// Runs the renders, at most 2 of them left running past their time limit before new ones
    /// are refused (the library cannot be interrupted).
    static let renderThread = TimeLimitedRenderThread(maximumOverdue: 2)

    /// The default of ``defaultLongSide``: 512 pixels.
    public static let defaultDefaultLongSide = 512
    /// The default of ``renderTimeLimit``: 5 seconds.
    public static let defaultRenderTimeLimit = 5.0

    /// The long side, in pixels, of a document that states no size (only a viewBox, or nothing).
    public let defaultLongSide: Int
    /// The CPU time one render may use, in seconds (``/WebImageCore/TimeLimitedRenderThread``).
    public let renderTimeLimit: Double

    /// Creates the coder.
    /// - Parameters:
    ///   - defaultLongSide: The long side of documents without a size (default 512, at least 1).
    ///   - renderTimeLimit: The CPU time one render may use, in seconds (default 5).
    public init(defaultLongSide: Int = SVGCoder.defaultDefaultLongSide, renderTimeLimit: Double = SVGCoder.defaultRenderTimeLimit) {
        self.defaultLongSide = max(1, defaultLongSide)
        self.renderTimeLimit = renderTimeLimit > 0 ? renderTimeLimit : Self.defaultRenderTimeLimit
    }

    /// The version of the librsvg the coder runs on (`"2.54.7"`).
    public static var libraryVersion: String {
        "\(rsvg_major_version).\(rsvg_minor_version).\(rsvg_micro_version)"
    }

    // MARK: Decoding

    /// `true` for text whose first non-blank character is `<` with `<svg` near the start
    /// (``/WebImageCore/ImageFormat/detect(_:)`` says ``/WebImageCore/ImageFormat/svg``).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat.detect(data) == .svg
    }

    /// Rasterises the SVG document at the size the options ask for (see the type's notes).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data that is not SVG or that
    ///   librsvg cannot read or render; ``/WebImageCore/WebImageError/Code/imageTooLarge`` past
    ///   ``renderTimeLimit`` or when cairo has no memory for the surface.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        let what = "SVG data of \(data.count) bytes"
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(what) is not SVG (no <svg element near the start of text)")
        }
        let instances = UseFanOut.instances(in: data)
        guard instances <= UseFanOut.maximumInstances else {
            throw WebImageError(.imageTooLarge, "\(what): its <use> references would draw more than \(UseFanOut.maximumInstances) elements beyond its own: refused before rendering")
        }
        let document = try SVGRendering.read(data, what: what)
        let natural = SVGRendering.geometry(of: document).natural(defaultLongSide: defaultLongSide)
        let choice = VectorRasterSize.choose(natural: natural, options: options)
        let bitmap = try Self.renderThread.run(limit: renderTimeLimit, what: what) {
            try SVGRendering.render(document, natural: natural, size: choice.size, what: what)
        }
        var metadata: ImageMetadata = [.decoded, .vector]
        if choice.isThumbnail { metadata.insert(.thumbnail) }
        return WebImage(bitmap: bitmap, scale: options.scaleFactor, format: .svg, metadata: metadata)
    }

    /// The document's size as a decode with default options draws it (``defaultLongSide`` for
    /// documents without a size; scaled down to the default pixel limit, so a vector is never
    /// described as refused: a decode with a lower limit draws it smaller), read without
    /// rendering.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for data librsvg cannot read.
    public func readProperties(of data: Data) throws -> ImageProperties {
        let what = "SVG data of \(data.count) bytes"
        guard canDecode(data) else {
            throw WebImageError(.badImageData, "\(what) is not SVG (no <svg element near the start of text)")
        }
        let document = try SVGRendering.read(data, what: what)
        let natural = SVGRendering.geometry(of: document).natural(defaultLongSide: defaultLongSide)
        let size = VectorRasterSize.choose(natural: natural, options: ImageDecodeOptions()).size
        return ImageProperties(format: .svg, pixelSize: size, hasAlpha: true)
    }

    // MARK: Encoding

    /// `false`: the coder does not write SVG.
    public func canEncode(to format: ImageFormat) -> Bool { false }

    /// Always throws: the coder does not write SVG.
    /// - Throws: ``/WebImageCore/WebImageError/Code/unsupportedFormat``.
    public func encode(_ image: WebImage, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "SVGCoder cannot encode \(format): it only decodes SVG")
    }
}
