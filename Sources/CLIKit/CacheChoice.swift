import Foundation
import SwiftWebImage

/// Which cache `fetch`, `prefetch` and `cache` use: `--cache-dir DIR`, `--no-cache`, or the
/// shared default.
///
/// Decision: the choice reaches ``ImageManager/shared`` through each request's context
/// (``WebImageContext/imageCache``), not by adding a member to ``CachesManager/shared``: the
/// shared manager keeps its own cache for every other caller, and a `--cache-dir` cache never
/// mixes with it.
/// - `--cache-dir DIR`: a ``WebImageCache`` (memory + disk, namespace `default`) whose disk tier
///   is `DIR/default`, decoding with ``CodersManager/shared``. So `--cache-dir
///   ~/.cache/swiftwebimage` is the shared cache's own directory.
/// - `--no-cache`: an empty ``CachesManager``: nothing is queried, nothing is stored.
/// - Neither: the shared manager's cache, ``CachesManager/shared`` (whose disk cache lives in
///   `$XDG_CACHE_HOME/swiftwebimage/default`, or `~/.cache/swiftwebimage/default`).
enum CacheChoice: Sendable {
    /// The shared manager's own cache.
    case shared
    /// A memory + disk cache in this directory.
    case directory(URL)
    /// No cache at all.
    case disabled

    /// The namespace of `--cache-dir` caches: the shared cache's.
    static let namespace = "default"

    /// The choice `--cache-dir` and `--no-cache` make.
    /// - Throws: ``CLIError`` (usage) when both are given, or the directory is empty.
    init(_ arguments: ParsedArguments, command: String) throws(CLIError) {
        let directory = arguments.value("--cache-dir")
        if arguments.has("--no-cache") {
            guard directory == nil else {
                throw .usage("\(command): --cache-dir and --no-cache cannot be used together")
            }
            self = .disabled
        } else if let directory {
            guard !directory.isEmpty else { throw .usage("\(command): --cache-dir needs a directory") }
            self = .directory(URL(fileURLWithPath: directory, isDirectory: true))
        } else {
            self = .shared
        }
    }

    /// The cache to put in each request's context, or `nil` to use the shared manager's.
    func makeCache() -> (any ImageCache)? {
        switch self {
        case .shared: nil
        case .directory(let url): WebImageCache(namespace: Self.namespace, directory: url, coder: CodersManager.shared)
        case .disabled: CachesManager()
        }
    }

    /// The disk cache of `cache stats|clear|trim`: `--cache-dir DIR`'s, else the shared cache's
    /// directory.
    func makeWebImageCache() -> WebImageCache {
        switch self {
        case .directory(let url): WebImageCache(namespace: Self.namespace, directory: url, coder: CodersManager.shared)
        case .shared, .disabled: WebImageCache(namespace: Self.namespace, coder: CodersManager.shared)
        }
    }

    /// For reports: the cache's disk directory, or what stands in for it.
    var summary: String {
        switch self {
        case .shared: "the shared cache"
        case .directory(let url): url.appendingPathComponent(DiskCache.directoryName(forNamespace: Self.namespace)).path
        case .disabled: "no cache"
        }
    }
}
