import CPoppler
import CairoGLibSupport
import Foundation
import WebImageCore

/// Reading PDF documents with poppler-glib and rendering a page into a cairo image surface.
///
/// The document is read from memory (`poppler_document_new_from_bytes`, no password).
/// poppler-glib runs no JavaScript and loads nothing outside the data when rendering (links,
/// launch actions and embedded files are not acted on).
enum PDFRendering {
    /// A parsed document, freed when the value is released.
    final class Document: @unchecked Sendable {
        // @unchecked: the document is used by one thread at a time (the one that reads it, then
        // the render thread, after the reader has handed it over) and freed once, in deinit.
        let document: OpaquePointer
        /// The bytes poppler reads from; they live as long as the document.
        let bytes: OpaquePointer

        init(document: OpaquePointer, bytes: OpaquePointer) {
            self.document = document
            self.bytes = bytes
        }

        deinit {
            g_object_unref(gpointer(document))
            g_bytes_unref(bytes)
        }

        /// The number of pages.
        var pageCount: Int { Int(poppler_document_get_n_pages(document)) }
    }

    /// A tiny one-page PDF read once before any other document, so that poppler's process-wide
    /// state is set up by one thread.
    static let initialized: Bool = {
        _ = GLibMessages.installed
        let pdf = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 1 1]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
        _ = try? read(Data(pdf.utf8), what: "poppler's set-up document", initializing: true)
        _ = GLibMessages.take(for: GLibMessages.currentThread)
        return true
    }()

    /// Reads `data` into a poppler document (no rendering).
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` with poppler's reason, and for an
    ///   encrypted document that needs a password.
    static func read(_ data: Data, what: String, initializing: Bool = false) throws -> Document {
        if !initializing { _ = initialized }
        guard !data.isEmpty else { throw WebImageError(.badImageData, "\(what) is empty") }
        let thread = GLibMessages.currentThread
        guard let bytes = data.withUnsafeBytes({ g_bytes_new($0.baseAddress, gsize($0.count)) }) else {
            throw WebImageError(.badImageData, "\(what): GLib has no memory for it")
        }
        var error: UnsafeMutablePointer<GError>?
        guard let document = poppler_document_new_from_bytes(bytes, nil, &error) else {
            g_bytes_unref(bytes)
            let logged = GLibMessages.take(for: thread)
            let encrypted = error.map { $0.pointee.domain == poppler_error_quark() && $0.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) } ?? false
            let reason = consume(error)
            if encrypted {
                throw WebImageError(.badImageData, "\(what) is encrypted and needs a password: encrypted PDFs are refused (poppler: \(reason))")
            }
            let extra = logged.isEmpty ? "" : "; " + logged.suffix(3).joined(separator: "; ")
            throw WebImageError(.badImageData, "\(what) is not a valid PDF document (poppler: \(reason)\(extra))")
        }
        _ = GLibMessages.take(for: thread)
        return Document(document: document, bytes: bytes)
    }

    /// The size of page `index` in points (1/72 inch), after its rotation.
    /// - Throws: ``/WebImageCore/WebImageError/Code/badImageData`` for a page the document lacks or
    ///   an empty page.
    static func pageSize(_ document: Document, index: Int, what: String) throws -> (width: Double, height: Double) {
        let count = document.pageCount
        guard count > 0 else { throw WebImageError(.badImageData, "\(what) has no pages") }
        guard index >= 0, index < count else {
            throw WebImageError(.badImageData, "\(what) has \(count) page\(count == 1 ? "" : "s"): there is no page index \(index) (pages are counted from 0)")
        }
        guard let page = poppler_document_get_page(document.document, Int32(index)) else {
            throw WebImageError(.badImageData, "\(what): poppler cannot read page index \(index)")
        }
        defer { g_object_unref(gpointer(page)) }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw WebImageError(.badImageData, "\(what): page index \(index) has an empty size (\(width)x\(height) points)")
        }
        return (width, height)
    }

    /// Renders page `index` (of `points` size) into a new `size` surface, on white paper unless
    /// `transparent`.
    static func render(_ document: Document, index: Int, points: (width: Double, height: Double), size: PixelSize, transparent: Bool, what: String) throws -> Bitmap {
        guard let page = poppler_document_get_page(document.document, Int32(index)) else {
            throw WebImageError(.badImageData, "\(what): poppler cannot read page index \(index)")
        }
        defer { g_object_unref(gpointer(page)) }
        let surface = try CairoPixels.makeSurface(size, what: what)
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else {
            throw WebImageError(.imageTooLarge, "\(what): cairo made no drawing context")
        }
        defer { cairo_destroy(cairo) }
        if !transparent {
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_paint(cairo)
        }
        cairo_scale(cairo, Double(size.width) / points.width, Double(size.height) / points.height)
        let thread = GLibMessages.currentThread
        poppler_page_render(page, cairo)
        _ = GLibMessages.take(for: thread)
        let status = cairo_status(cairo)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw WebImageError(.badImageData, "\(what): page index \(index) cannot be rendered (cairo: \(String(cString: cairo_status_to_string(status))))")
        }
        var bitmap = try CairoPixels.bitmap(of: surface, what: what)
        if !transparent { bitmap.hasAlpha = false }
        return bitmap
    }

    /// GLib's message of `error` (freed), or "no reason given".
    static func consume(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }
}
