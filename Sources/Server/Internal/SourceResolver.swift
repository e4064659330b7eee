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
/// the server's source rules, which follow thumbor 7.8's loaders:
/// - `http://` and `https://`: a URL with a host, on the allow-list when there is one (else
///   `403`); loaded by the server's downloader (address guard on unless private sources are
///   allowed). Its characters are percent-encoded as thumbor's HTTP loader does
///   (``HTTPSourceURL``).
/// - another `scheme://` at the start: the loader registered for it (`photos` for the Photos
///   plug-in), else `400`.
/// - anything else has no scheme. Without a file root it is an HTTP source, as with thumbor's
///   default loader (`http_loader`): `host[:port]/path`, fetched over `http://` with the same
///   allow-list and guard (`example.com/a.png`, `127.0.0.1:8080/a.png`); one that starts with
///   `/`, or is no URL with a host, is `400`. With a file root it is a path under the root
///   (thumbor's `file_loader`; leading `/`s are dropped, as thumbor drops them): a `..`
///   component, or a path whose real location (symbolic links resolved) is outside the root,
///   is `403`; no such file `404`, or with ``ImageServerConfiguration/fetchesMissingFilesOverHTTP``
///   an HTTP source as above (thumbor's `file_loader_http_fallback`); a file over the size
///   limit `413`.
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
    /// Whether a missing file is looked for over HTTP instead.
    let fetchesMissingFilesOverHTTP: Bool
    let maximumSourceBytes: Int

    init(configuration: ImageServerConfiguration, httpLoader: any ImageLoader, fileLoader: any ImageLoader, schemeLoaders: [String: any ImageLoader]) {
        self.httpLoader = httpLoader
        self.fileLoader = fileLoader
        self.schemeLoaders = schemeLoaders
        self.allowedHosts = configuration.allowedSourceHosts.map { $0.lowercased() }
        self.maximumSourceBytes = configuration.maximumSourceBytes
        self.fetchesMissingFilesOverHTTP = configuration.fetchesMissingFilesOverHTTP
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
        if let scheme = Self.scheme(of: source) {
            if scheme == "http" || scheme == "https" {
                return try resolveHTTP(source, addsScheme: false)
            }
            guard let loader = schemeLoaders[scheme] else {
                throw ServingFailure(400, "source scheme \(scheme):// is not served here")
            }
            guard let url = URL(string: source) else {
                throw ServingFailure(400, "source \(source) is not a valid URL")
            }
            return Resolved(url: url, loader: loader)
        }
        guard fileRootPrefix != nil else {
            return try resolveSchemeless(source)
        }
        do {
            return try resolveFile(source)
        } catch let failure where failure.status == 404 && fetchesMissingFilesOverHTTP {
            return try resolveSchemeless(source)
        }
    }

    /// The scheme of `source`, lower-cased, when it starts with one and `://`
    /// (`[A-Za-z][A-Za-z0-9+.-]*://`); `nil` otherwise (`example.com/a?u=http://b` has none).
    static func scheme(of source: String) -> String? {
        guard let end = source.range(of: "://") else { return nil }
        let scheme = source[..<end.lowerBound]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == ".") }) else {
            return nil
        }
        return scheme.lowercased()
    }

    /// A source without a scheme, fetched over `http://` as thumbor's HTTP loader fetches it.
    private func resolveSchemeless(_ source: String) throws(ServingFailure) -> Resolved {
        guard !source.hasPrefix("/") else {
            throw ServingFailure(400, "source \(source) starts with /: a source without a scheme is fetched over HTTP as host[:port]/path\(fileRootPrefix == nil ? " (the server has no file root)" : "")")
        }
        let lowered = source.lowercased()
        if lowered.hasPrefix("http:/") || lowered.hasPrefix("https:/") {
            throw ServingFailure(400, "source \(source) has one / after its scheme (a proxy in front may merge slashes: keep them, or percent-encode the source)")
        }
        return try resolveHTTP(source, addsScheme: true)
    }

    private func resolveHTTP(_ source: String, addsScheme: Bool) throws(ServingFailure) -> Resolved {
        guard let url = HTTPSourceURL.url(for: source, addsScheme: addsScheme), let host = url.host?.lowercased(), !host.isEmpty else {
            throw ServingFailure(400, "source \(source) is not a valid http(s) URL\(addsScheme ? " (a source without a scheme is fetched over HTTP as host[:port]/path)" : "")")
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
        // thumbor's file loader drops leading slashes: `/a.jpg` is `a.jpg` under the root.
        let source = String(source.drop(while: { $0 == "/" }))
        guard !source.isEmpty else { throw ServingFailure(404, "source not found: / (no file name)") }
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
