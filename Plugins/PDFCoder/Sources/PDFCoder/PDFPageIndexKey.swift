public import WebImageCore

/// The context key that picks the page a ``PDFCoder`` renders (0-based; read from
/// ``/WebImageCore/ImageDecodeOptions/context``).
///
/// ```swift
/// var context = WebImageContext()
/// context.pdfPageIndex = 2   // the third page
/// ```
///
/// The cache key does not include it: give each page its own URL (or a cache key filter) when
/// several pages of one document are loaded through a cache.
public enum PDFPageIndexKey: WebImageContextKey {
    /// The page index, from 0.
    public typealias Value = Int
    /// It changes how the bytes become pixels: requests share a decode only for the same page.
    public static let effect = WebImageContextKeyEffect.decode
}
