import Foundation
import WebImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a thumbor request's source into the URL to load and the loader that loads it, with
/// the server's source rules:
/// - `http://` and `https://`: a URL with a host, on the allow-list when there is one (else
///   `403`); loaded by the server's downloader (address guard on unless private sources are
///   allowed).
/// - another `scheme://`: the loader registered for it (`photos` for the Photos plug-in), else `400`.
/// - anything else: a relative path under the file root. No file root, an absolute path, a `..`
///   component, or a path whose real location (symbolic links resolved) is outside the root:
///   `403`. No such file: `404`. A file over the size limit: `413`.
struct SourceResolver: Sendable {
    /// A source ready to load.
    struct Resolved: Sendable {
        /// The URL handed to the manager (its cache key for the original).
        var url: URL
        /// The loader for it.
        var loader: any ImageLoader
    }

    let httpLoader: any ImageLoader
    let fileLoader: any ImageLoader
    let schemeLoaders: [String: any ImageLoader]
    let allowedHosts: [String]
    /// The file root with its symbolic links resolved, ending in `/`; `nil` without a root.
    let fileRootPrefix: String?
    let maximumSourceBytes: Int

    init(configuration: ImageServerConfiguration, httpLoader: any ImageLoader, fileLoader: any ImageLoader, schemeLoaders: [String: any ImageLoader]) {
        self.httpLoader = httpLoader
        self.fileLoader = fileLoader
        self.schemeLoaders = schemeLoaders
        self.allowedHosts = configuration.allowedSourceHosts.map { $0.lowercased() }
        self.maximumSourceBytes = configuration.maximumSourceBytes
        if let root = configuration.fileRoot {
            let real = Self.realPath(root.path) ?? root.standardizedFileURL.path
            fileRootPrefix = real.hasSuffix("/") ? real : real + "/"
        } else {
            fileRootPrefix = nil
        }
    }

    /// The URL and loader for `source`.
    /// - Throws: ``ServingFailure`` with the status the rules above give.
    func resolve(_ source: String) throws(ServingFailure) -> Resolved {
        guard !source.isEmpty else { throw ServingFailure(400, "the URL names no source image") }
        guard !source.utf8.contains(0) else { throw ServingFailure(400, "the source contains a NUL byte") }
        if let schemeEnd = source.range(of: "://") {
            let scheme = source[..<schemeEnd.lowerBound].lowercased()
            if scheme == "http" || scheme == "https" {
                return try resolveHTTP(source)
            }
            guard scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }), !scheme.isEmpty else {
                throw ServingFailure(400, "source \(source) has a malformed scheme")
            }
            guard let loader = schemeLoaders[scheme] else {
                throw ServingFailure(400, "source scheme \(scheme):// is not served here")
            }
            guard let url = URL(string: source) else {
                throw ServingFailure(400, "source \(source) is not a valid URL")
            }
            return Resolved(url: url, loader: loader)
        }
        return try resolveFile(source)
    }

    private func resolveHTTP(_ source: String) throws(ServingFailure) -> Resolved {
        guard let url = URL(string: source) ?? URL(string: source.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.union(.urlPathAllowed)) ?? ""),
              let host = url.host?.lowercased(), !host.isEmpty else {
            throw ServingFailure(400, "source \(source) is not a valid http(s) URL")
        }
        if !allowedHosts.isEmpty, !allowedHosts.contains(where: { Self.host(host, matches: $0) }) {
            throw ServingFailure(403, "source host \(host) is not on the allow-list")
        }
        return Resolved(url: url, loader: httpLoader)
    }

    /// Whether `host` matches an allow-list entry: the same name, or for `*.example.com` a
    /// subdomain of `example.com` (not `example.com` itself).
    static func host(_ host: String, matches pattern: String) -> Bool {
        let trimmedHost = host.hasSuffix(".") ? String(host.dropLast()) : host
        if pattern.hasPrefix("*.") {
            let suffix = pattern.dropFirst(1)
            return trimmedHost.hasSuffix(suffix) && trimmedHost.count > suffix.count
        }
        return trimmedHost == pattern
    }

    private func resolveFile(_ source: String) throws(ServingFailure) -> Resolved {
        guard let rootPrefix = fileRootPrefix else {
            throw ServingFailure(403, "source \(source) is a file path, and the server has no file root")
        }
        guard !source.hasPrefix("/") else {
            throw ServingFailure(403, "source \(source) is an absolute path; file sources are relative to the file root")
        }
        let components = source.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.contains(where: { $0 == ".." }) else {
            throw ServingFailure(403, "source \(source) climbs out of the file root with ..")
        }
        let candidate = rootPrefix + source
        guard let real = Self.realPath(candidate) else {
            throw ServingFailure(404, "source not found: \(source)")
        }
        guard real.hasPrefix(rootPrefix) else {
            throw ServingFailure(403, "source \(source) leads out of the file root")
        }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw ServingFailure(404, "source not found: \(source) (not a regular file)")
        }
        guard Int(info.st_size) <= maximumSourceBytes else {
            throw ServingFailure(413, "source \(source) is \(info.st_size) bytes, over the limit of \(maximumSourceBytes)")
        }
        return Resolved(url: URL(fileURLWithPath: real), loader: fileLoader)
    }

    /// `path` with every symbolic link resolved, or `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
