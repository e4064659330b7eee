public import WebImageCore

/// The loaders this module provides, ready for a ``/WebImageCore/LoadersManager``.
public enum BuiltInLoaders {
    /// A new ``Downloader``, ``FileLoader`` and ``DataURLLoader``, in that registration order
    /// (a manager asks the last added first; their URL schemes do not overlap anyway), all
    /// decoding with `coder` when a request's context gives no coder.
    /// - Parameters:
    ///   - coder: The coder of every loader (the umbrella passes `CodersManager.shared`).
    ///   - downloaderConfiguration: The downloader's settings (default: SDWebImage's defaults).
    /// - Returns: `[Downloader, FileLoader, DataURLLoader]`.
    public static func all(coder: any ImageCoder, downloaderConfiguration: DownloaderConfiguration = DownloaderConfiguration()) -> [any ImageLoader] {
        [Downloader(configuration: downloaderConfiguration, coder: coder), FileLoader(coder: coder), DataURLLoader(coder: coder)]
    }
}
