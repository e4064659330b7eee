extension WebImageOptions {
    /// The built-in flags that never change how bytes decode. Every other flag, a plug-in's
    /// included, enters ``ImageDecodeSharingKey``.
    static let decodeIndependent: WebImageOptions = WebImageOptions.workIndependent.union([
        .progressiveLoad, .refreshCached, .handleCookies, .allowInvalidSSLCertificates,
        .transformAnimatedImage, .transformVectorImage, .queryMemoryData, .fromCacheOnly,
        .fromLoaderOnly, .waitStoreCache,
    ])
}
