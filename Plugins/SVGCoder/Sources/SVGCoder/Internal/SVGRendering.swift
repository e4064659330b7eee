import CRSVG
import CairoGLibSupport
import Foundation
import WebImageCore

/// Reading SVG documents with librsvg and rasterising them into cairo image surfaces.
///
/// The document is read from memory (`rsvg_handle_new_from_stream_sync` over a memory input
/// stream) with no base file and without `RSVG_HANDLE_FLAG_UNLIMITED`: librsvg resolves a
/// reference against the base URL, and with none it allows only `data:` URLs, so `<image>`,
/// `<use>`, XInclude and CSS `@import` of files or http URLs load nothing; libxml2 runs with its
/// limits and without network access or external entities.
enum SVGRendering {
    /// The size a document states, in pixels (at 96 dpi), or `nil` when it states none.
    struct Geometry {
        /// The size from the document's `width` and `height` (`nil` when they are missing or
        /// relative and there is no viewBox to make them absolute).
        var intrinsic: (width: Double, height: Double)?
        /// The viewBox's size, when it has one.
        var viewBox: (width: Double, height: Double)?

        /// The size used when no thumbnail is asked for: the intrinsic size, else the viewBox's
        /// aspect ratio with `defaultLongSide` on its long side, else a square of that side.
        func natural(defaultLongSide: Int) -> (width: Double, height: Double) {
            if let intrinsic, intrinsic.width > 0, intrinsic.height > 0 { return intrinsic }
            let side = Double(defaultLongSide)
            if let viewBox, viewBox.width > 0, viewBox.height > 0 {
                return viewBox.width >= viewBox.height
                    ? (side, side * viewBox.height / viewBox.width)
                    : (side * viewBox.width / viewBox.height, side)
            }
            return (side, side)
        }
    }

    /// A parsed document, freed when the value is released.
    final class Document: @unchecked Sendable {
        // @unchecked: the handle is used by one thread at a time (the one that reads it, then the
        // render thread, after the reader has handed it over) and freed once, in deinit.
        let handle: OpaquePointer

        init(handle: OpaquePointer) { self.handle = handle }
        deinit { g_object_unref(gpointer(handle)) }
    }

    /// Reads `data` into a librsvg handle (no rendering).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` with librsvg's reason.
    static func read(_ data: Data, what: String) throws -> Document {
        _ = GLibMessages.installed
        guard !data.isEmpty else { throw WebImageError(.badImageData, "\(what) is empty") }
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        defer { g_object_unref(gpointer(stream)) }
        var error: UnsafeMutablePointer<GError>?
        // No base file: only data: URLs resolve. No RSVG_HANDLE_FLAG_UNLIMITED: libxml2's limits hold.
        let handle = rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        guard let handle else {
            throw WebImageError(.badImageData, "\(what) is not a valid SVG document (librsvg: \(consume(error)))")
        }
        rsvg_handle_set_dpi(handle, 96)
        return Document(handle: handle)
    }

    /// The document's stated size and viewBox.
    static func geometry(of document: Document) -> Geometry {
        var geometry = Geometry()
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(document.handle, &width, &height) != 0, width.isFinite, height.isFinite, width > 0, height > 0 {
            geometry.intrinsic = (width, height)
        }
        var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
        var viewBox = RsvgRectangle()
        var widthLength = RsvgLength(), heightLength = RsvgLength()
        rsvg_handle_get_intrinsic_dimensions(document.handle, &hasWidth, &widthLength, &hasHeight, &heightLength, &hasViewBox, &viewBox)
        if hasViewBox != 0, viewBox.width.isFinite, viewBox.height.isFinite, viewBox.width > 0, viewBox.height > 0 {
            geometry.viewBox = (viewBox.width, viewBox.height)
        }
        return geometry
    }

    /// Renders `document` into a new `size` surface: its natural size `natural` stretched to
    /// `size` (equal scales when the caller kept the aspect ratio).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` when librsvg fails,
    ///   ``/WebImageCore/WebImageError/Code/imageTooLarge`` when cairo has no memory for the surface.
    static func render(_ document: Document, natural: (width: Double, height: Double), size: PixelSize, what: String) throws -> Bitmap {
        let surface = try CairoPixels.makeSurface(size, what: what)
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else {
            throw WebImageError(.imageTooLarge, "\(what): cairo made no drawing context")
        }
        defer { cairo_destroy(cairo) }
        cairo_scale(cairo, Double(size.width) / natural.width, Double(size.height) / natural.height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: natural.width, height: natural.height)
        var error: UnsafeMutablePointer<GError>?
        let thread = GLibMessages.currentThread
        let rendered = rsvg_handle_render_document(document.handle, cairo, &viewport, &error)
        let logged = GLibMessages.take(for: thread)
        guard rendered != 0 else {
            let extra = logged.isEmpty ? "" : "; " + logged.joined(separator: "; ")
            throw WebImageError(.badImageData, "\(what) cannot be rendered (librsvg: \(consume(error))\(extra))")
        }
        let status = cairo_status(cairo)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw WebImageError(.badImageData, "\(what) cannot be rendered (cairo: \(String(cString: cairo_status_to_string(status))))")
        }
        return try CairoPixels.bitmap(of: surface, what: what)
    }

    /// GLib's message of `error` (freed), or "no reason given".
    static func consume(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }
}
