public import WebImageCore

extension WebImageContextKeys {
    /// The key of ``WebImageCore/WebImageContext/downloadRequestModifier``.
    public enum DownloadRequestModifier: WebImageContextKey {
        /// The value's type.
        public typealias Value = any WebImageLoaders.RequestModifier
        /// Changes what is loaded.
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageCore/WebImageContext/downloadResponseModifier``.
    public enum DownloadResponseModifier: WebImageContextKey {
        /// The value's type.
        public typealias Value = any WebImageLoaders.ResponseModifier
        /// Changes what is loaded.
        public static let effect = WebImageContextKeyEffect.load
    }
    /// The key of ``WebImageCore/WebImageContext/downloadDecryptor``.
    public enum DownloadDecryptor: WebImageContextKey {
        /// The value's type.
        public typealias Value = any WebImageLoaders.Decryptor
        /// Changes what is loaded.
        public static let effect = WebImageContextKeyEffect.load
    }
}

/// The context keys of the download stage: they live with the loaders that read them, so Core
/// needs no networking types.
extension WebImageContext {
    /// Rewrites or vetoes the HTTP request (SDWebImage `downloadRequestModifier`).
    public var downloadRequestModifier: (any RequestModifier)? {
        get { self[WebImageContextKeys.DownloadRequestModifier.self] }
        set { self[WebImageContextKeys.DownloadRequestModifier.self] = newValue }
    }
    /// Rewrites or vetoes the HTTP response (SDWebImage `downloadResponseModifier`).
    public var downloadResponseModifier: (any ResponseModifier)? {
        get { self[WebImageContextKeys.DownloadResponseModifier.self] }
        set { self[WebImageContextKeys.DownloadResponseModifier.self] = newValue }
    }
    /// Transforms the downloaded data before decoding (SDWebImage `downloadDecryptor`).
    public var downloadDecryptor: (any Decryptor)? {
        get { self[WebImageContextKeys.DownloadDecryptor.self] }
        set { self[WebImageContextKeys.DownloadDecryptor.self] = newValue }
    }
}
