public import WebImageCore

extension WebImageContext {
    /// Lossless (`true`) or lossy (`false`) JPEG XL encoding for this request; `nil` (the
    /// default) leaves the choice to the ``JXLCoder``'s ``JXLCoder/lossless`` setting.
    public var jxlLossless: Bool? {
        get { self[JXLLosslessKey.self] }
        set { self[JXLLosslessKey.self] = newValue }
    }
}
