public import WebImageCore

extension WebImageContext {
    /// Progressive (`true`) or baseline (`false`) JPEG encoding for this request; `nil` (the
    /// default) leaves the choice to the ``JPEGCoder``'s ``JPEGCoder/progressiveEncoding`` setting.
    public var jpegProgressive: Bool? {
        get { self[JPEGProgressiveKey.self] }
        set { self[JPEGProgressiveKey.self] = newValue }
    }
}
