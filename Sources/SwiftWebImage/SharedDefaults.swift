// The shared instances. `WebImageCore` knows no concrete coder, cache or loader, so the shared
// managers, filled with the built-in members, and the shared downloader and image cache, made
// with the shared coders, are declared here in the umbrella module: every app and plug-in that
// imports `SwiftWebImage` sees the same instances, wired from their first use.

extension CodersManager {
    /// The shared coders manager, holding the built-in coders. Register a custom coder at
    /// launch with `CodersManager.shared.add(MyCoder())`: it is asked before the built-ins.
    ///
    /// Built-in members, in registration order: BMP, GIF, PNG (with APNG), JPEG (so JPEG is asked
    /// first); see `BuiltInCoders`.
    public static let shared = CodersManager(BuiltInComponents.coders)
}

extension LoadersManager {
    /// The shared loaders manager, holding the built-in loaders. Register a custom loader at
    /// launch with `LoadersManager.shared.add(MyLoader())`: it is asked before the built-ins.
    ///
    /// Built-in members, in registration order: ``WebImageLoaders/Downloader/shared`` (http, https), a
    /// `FileLoader` (file URLs) and a `DataURLLoader` (data URLs), all decoding with
    /// ``CodersManager/shared``.
    public static let shared = LoadersManager(BuiltInComponents.loaders)
}

extension Downloader {
    /// The shared downloader (SDWebImage's `sharedDownloader`): the one in
    /// ``WebImageCore/LoadersManager/shared``, decoding with ``WebImageCore/CodersManager/shared``. Set its headers, or
    /// suspend it, here.
    public static let shared = Downloader(coder: CodersManager.shared)
}

extension WebImageCache {
    /// The shared cache (SDWebImage's `SDImageCache.sharedImageCache`): namespace `"default"`,
    /// memory + disk in `$XDG_CACHE_HOME/swiftwebimage/default` (or
    /// `~/.cache/swiftwebimage/default`), decoding disk hits and encoding images stored without
    /// data with ``WebImageCore/CodersManager/shared`` from the first use, whatever is touched first.
    /// Creating it does no I/O. It is the built-in member of ``WebImageCore/CachesManager/shared``.
    public static let shared = WebImageCache(namespace: "default", coder: CodersManager.shared)
}

extension CachesManager {
    /// The shared caches manager. Add a third-party cache with `CachesManager.shared.add(...)`;
    /// it becomes the highest member (queried first, and with the default store policy the one
    /// stores go to).
    ///
    /// Built-in member: ``WebImageCaches/WebImageCache/shared`` (memory + disk, in
    /// `$XDG_CACHE_HOME/swiftwebimage/default` or `~/.cache/swiftwebimage/default`), decoding
    /// disk hits and encoding images stored without data with ``CodersManager/shared``.
    public static let shared = CachesManager(BuiltInComponents.caches)
}

/// The built-in members of the shared managers, in registration order.
enum BuiltInComponents {
    static var coders: [any ImageCoder] { BuiltInCoders.all }
    static var loaders: [any ImageLoader] {
        [Downloader.shared, FileLoader(coder: CodersManager.shared), DataURLLoader(coder: CodersManager.shared)]
    }
    static var caches: [any ImageCache] { [WebImageCache.shared] }
}

extension ImageManager {
    /// The shared manager: the shared caches manager as its cache, the shared loaders manager
    /// as its loader (which decode with the shared coders manager).
    public static let shared = ImageManager(cache: CachesManager.shared, loader: LoadersManager.shared)
}
