public import WebImageCore

extension WebImageContext {
    /// The page a ``PDFCoder`` renders, from 0; `nil` (the default) renders the first page.
    public var pdfPageIndex: Int? {
        get { self[PDFPageIndexKey.self] }
        set { self[PDFPageIndexKey.self] = newValue }
    }
}
