public import WebImageCore

extension WebImageOptions {
    /// The recommended options for `photos://` requests: `fromLoaderOnly`. The library is already
    /// on local disk (see ``PhotosLoader``); combine with
    /// ``WebImageContext/photosLibrary(thumbnailPixelSize:)`` to skip the cache store as well.
    public static let photosLibrary: WebImageOptions = [.fromLoaderOnly]
}
