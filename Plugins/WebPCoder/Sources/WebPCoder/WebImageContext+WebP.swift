public import WebImageCore

extension WebImageContext {
    /// Lossless (`true`) or lossy (`false`) WebP encoding for this request; `nil` (the default)
    /// leaves the choice to the ``WebPCoder``'s ``WebPCoder/lossless`` setting.
    public var webPLossless: Bool? {
        get { self[WebPLosslessKey.self] }
        set { self[WebPLosslessKey.self] = newValue }
    }
}
