import Foundation
import PDFCoder
import SwiftWebImage

/// A coder that tells how many pages a document has when a decode shows one of them (a PDF's
/// first page, or the one the context picks), so that `webimage info` can say how many there
/// are (`"pages"`). Formats whose pages are frames (TIFF) need none: `frames` counts them.
///
/// `info` asks the coder that would decode the data (``InfoCommand/pageCount(of:coder:)``); a
/// plug-in coder with a page count gets it by one conformance here, next to ``PluginCoders``.
protocol PageCountReader: ImageCoder {
    /// The number of pages of the document in `data`.
    /// - Throws: The coder's error for data it cannot read.
    func pageCount(of data: Data) throws -> Int
}

/// ``PDFCoder/PDFCoder/pageCount(of:)``: the document's page count, from poppler.
extension PDFCoder: PageCountReader {}
