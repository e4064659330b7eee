import Foundation
import RedisCache
import SwiftWebImage
import WebImageHTTPServer
import WebImageServe
import WebImageServer

/// Everything `webimage serve` is told on its command line and in its environment, checked and
/// turned into the configurations of the parts it builds.
///
/// Every option has an environment variable, `WEBIMAGE_SERVE_` and the option's name in upper
/// case with `_` for `-` (`--max-source-bytes` is `WEBIMAGE_SERVE_MAX_SOURCE_BYTES`); the
/// command line wins over the environment (see ``ServeEnvironment``).
///
/// Decisions:
/// - No key and no `--allow-unsigned` is a usage error: such a server would refuse every image
///   URL, which is never what someone starting it wants.
/// - `--memory-cache-mb` and `--disk-cache-mb` are totals, split by the library
///   (``/WebImageServe/ImageServeConfiguration``): decoded originals get half of the memory, the
///   image server's reduced copies of them and its tier of encoded results a quarter each;
///   originals and results get half of the disk each.
@dynamicMemberLookup
struct ServeOptions: Sendable {
    /// The server the options describe (the library's configuration; every part of it reads as
    /// a member of the options: `options.server`, `options.http`, `options.memoryCacheBytes`...).
    var serve = ImageServeConfiguration()

    /// A part of ``serve``.
    subscript<Value>(dynamicMember keyPath: WritableKeyPath<ImageServeConfiguration, Value>) -> Value {
        get { serve[keyPath: keyPath] }
        set { serve[keyPath: keyPath] = newValue }
    }

    /// libwebp's encoding method for WebP answers, 0 (fastest) to 6 (smallest). The default is 2
    /// (issue 36): a WebP answer's encode takes under half of method 4's time (4 is the default
    /// of libwebp and Pillow, so of thumbor, and of libvips and imgproxy), for files 5% larger in
    /// the median at the same quality setting and about the same PSNR (Debian 12's libwebp
    /// 1.2.4; against thumbor's answers, `scripts/thumbor-bytes`: median 1.049, 1.000 to 1.189;
    /// 28 answers of 14 sources at fit-in 512 and 1024: median +5.8%, PSNR -1.2 to +0.3 dB).
    /// Method 1 is faster still but 12% larger in the median and up to 55% on small images.
    /// `--webp-method 4` writes thumbor's bytes.
    var webpMethod = 2

    /// The flags (options without a value).
    static let flags: Set<String> = ["--allow-unsigned", "--allow-private-sources", "--allow-svg", "--no-cache", "--keep-profile", "--redis-read-replicas", "--no-shrink-on-load", "--file-fallback-http"]
    /// The options that take a value.
    static let valueOptions: Set<String> = [
        "--port", "--host", "--key", "--key-file", "--cache-dir", "--memory-cache-mb", "--disk-cache-mb", "--memory-limit",
        "--redis", "--redis-namespace", "--redis-sentinel", "--redis-master", "--redis-sentinel-password", "--redis-cluster", "--allow-source-host", "--allow-source-address", "--proxy", "--root", "--max-source-bytes",
        "--max-source-pixels", "--max-total-pixels", "--max-frames", "--max-output", "--max-url-length", "--max-filters", "--max-filter-work",
        "--timeout", "--origin-timeout", "--queue", "--threads", "--workers", "--max-connections",
        "--max-connections-per-client", "--client-timeout", "--max-age", "--quality", "--webp-method", "--progressive-jpeg", "--smart", "--access-log",
    ]
    /// The options that may be given several times.
    static let repeatable: Set<String> = ["--allow-source-host", "--allow-source-address"]
    /// Options of which at most one may be given; the environment gives none of a group the
    /// command line names one of.
    static let exclusiveGroups: [Set<String>] = [["--key", "--key-file"], ["--cache-dir", "--no-cache"], ["--redis-sentinel", "--redis-cluster"]]

    /// The options of `arguments` (already merged with the environment).
    /// - Throws: ``CLIError`` (usage) naming the option and the value that is wrong.
    init(_ arguments: ParsedArguments, command: String) throws(CLIError) {
        guard arguments.positionals.isEmpty else {
            throw .usage("\(command): takes no arguments, only options (got '\(arguments.positionals[0])')")
        }
        for group in Self.exclusiveGroups {
            let given = group.filter { arguments.has($0) || arguments.value($0) != nil }.sorted()
            if given.count > 1 {
                throw .usage("\(command): \(given.joined(separator: " and ")) cannot be used together")
            }
        }
        // Where to listen.
        if let host = arguments.value("--host") {
            guard !host.isEmpty else { throw .usage("\(command): --host needs an address (0.0.0.0, 127.0.0.1, ::)") }
            serve.http.host = host
        }
        serve.http.port = try Self.integer(arguments, "--port", in: 0...65535, command: command) ?? serve.http.port
        serve.http.threadCount = try Self.integer(arguments, "--threads", in: 1...1024, command: command) ?? serve.http.threadCount
        serve.http.connectionLimit = try Self.integer(arguments, "--max-connections", in: 1...1_000_000, command: command) ?? serve.http.connectionLimit
        serve.http.connectionsPerClientLimit = try Self.integer(arguments, "--max-connections-per-client", in: 0...1_000_000, command: command)
            ?? serve.http.connectionsPerClientLimit
        if let value = arguments.value("--client-timeout") {
            guard let seconds = Double(value), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                throw .usage("\(command): --client-timeout needs a number of seconds (10, 2.5; 0 for none), not '\(value)'")
            }
            serve.http.requestHeadTimeout = .milliseconds(Int64((seconds * 1000).rounded(.up)))
        }

        // Security.
        serve.server.allowsUnsigned = arguments.has("--allow-unsigned")
        serve.server.allowsPrivateSources = arguments.has("--allow-private-sources")
        serve.server.allowsSVGSources = arguments.has("--allow-svg")
        serve.server.shrinksOnLoad = !arguments.has("--no-shrink-on-load")
        if arguments.has("--keep-profile") { serve.server.colorProfileHandling = .keep }
        if let key = arguments.value("--key") {
            guard !key.isEmpty else { throw .usage("\(command): --key is empty") }
            serve.server.securityKey = key
        } else if let file = arguments.value("--key-file") {
            serve.server.securityKey = try Self.readKey(file, command: command)
        }
        if serve.server.securityKey == nil, !serve.server.allowsUnsigned {
            throw .usage("\(command): give a security key (--key, --key-file or WEBIMAGE_SERVE_KEY), or --allow-unsigned to serve /unsafe/ URLs")
        }
        for value in arguments.allValues("--allow-source-host") {
            let hosts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
            guard !hosts.isEmpty else { throw .usage("\(command): --allow-source-host needs a host name") }
            serve.server.allowedSourceHosts += hosts
        }
        for value in arguments.allValues("--allow-source-address") {
            // Checked with the address guard's own parser: the guard refuses every connection
            // while one entry is malformed, so a bad one must stop the start instead.
            let entries = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for entry in entries.isEmpty ? [value] : entries {
                guard DownloaderConfiguration.isValidAllowedNonPublicAddress(entry) else {
                    throw .usage("\(command): --allow-source-address needs an IP address or a CIDR network (10.1.0.0/16, 192.168.1.7, "
                        + "fd00::/8; a prefix up to 32 for IPv4, 128 for IPv6), not '\(entry)'")
                }
                serve.server.downloaderConfiguration.allowedNonPublicAddresses.append(entry)
            }
        }
        if let value = arguments.value("--proxy") {
            serve.server.downloaderConfiguration.proxy = try Self.proxy(value, command: command)
        }
        if let root = arguments.value("--root") {
            var isDirectory: ObjCBool = false
            guard !root.isEmpty, FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .usage("\(command): --root \(root) is not a directory")
            }
            serve.server.fileRoot = URL(fileURLWithPath: root, isDirectory: true).standardizedFileURL
        }
        if arguments.has("--file-fallback-http") {
            guard serve.server.fileRoot != nil else {
                throw .usage("\(command): --file-fallback-http needs --root (without a root, sources without a scheme are fetched over HTTP anyway)")
            }
            serve.server.fetchesMissingFilesOverHTTP = true
        }

        // Limits.
        if let value = arguments.value("--max-source-bytes") {
            guard let bytes = ByteCount.parse(value), bytes >= 1 else {
                throw .usage("\(command): --max-source-bytes needs a size (50000000, 50M, 1G), not '\(value)'")
            }
            serve.server.maximumSourceBytes = bytes
        }
        serve.server.maximumSourcePixels = try Self.integer(arguments, "--max-source-pixels", in: 1...Int.max, command: command) ?? serve.server.maximumSourcePixels
        serve.server.maximumTotalSourcePixels = try Self.integer(arguments, "--max-total-pixels", in: 1...Int.max, command: command) ?? serve.server.maximumTotalSourcePixels
        serve.server.maximumSourceFrames = try Self.integer(arguments, "--max-frames", in: 1...Int.max, command: command) ?? serve.server.maximumSourceFrames
        serve.server.maximumOutputDimension = try Self.integer(arguments, "--max-output", in: 1...65535, command: command) ?? serve.server.maximumOutputDimension
        serve.server.maximumURLLength = try Self.integer(arguments, "--max-url-length", in: 16...1_048_576, command: command) ?? serve.server.maximumURLLength
        serve.server.maximumFilterCount = try Self.integer(arguments, "--max-filters", in: 1...100_000, command: command) ?? serve.server.maximumFilterCount
        serve.server.maximumFilterWork = try Self.integer(arguments, "--max-filter-work", in: 1...Int.max, command: command) ?? serve.server.maximumFilterWork
        if let value = arguments.value("--timeout") {
            guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw .usage("\(command): --timeout needs a number of seconds above 0 (30, 2.5), not '\(value)'")
            }
            serve.server.requestTimeout = .milliseconds(Int64((seconds * 1000).rounded(.up)))
        }
        if let value = arguments.value("--origin-timeout") {
            guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw .usage("\(command): --origin-timeout needs a number of seconds above 0 (15, 2.5), not '\(value)'")
            }
            serve.server.downloaderConfiguration.downloadTimeout = seconds
        }
        serve.server.maximumQueuedTransforms = try Self.integer(arguments, "--queue", in: 0...1_000_000, command: command) ?? serve.server.maximumQueuedTransforms
        serve.server.transformConcurrency = try Self.integer(arguments, "--workers", in: 1...1024, command: command) ?? serve.server.transformConcurrency
        serve.server.cacheMaxAge = try Self.integer(arguments, "--max-age", in: 0...Int(Int32.max), command: command) ?? serve.server.cacheMaxAge
        serve.server.defaultQuality = try Self.integer(arguments, "--quality", in: 1...100, command: command) ?? serve.server.defaultQuality
        webpMethod = try Self.integer(arguments, "--webp-method", in: 0...6, command: command) ?? webpMethod
        if let value = arguments.value("--progressive-jpeg") {
            guard let mode = ProgressiveJPEGMode(rawValue: value.lowercased()) else {
                throw .usage("\(command): --progressive-jpeg needs auto, on or off, not '\(value)'")
            }
            serve.server.progressiveJPEG = mode
        }
        if let value = arguments.value("--smart") {
            let name = value.lowercased() == "center" ? "centre" : value.lowercased()
            guard let mode = SmartCropMode(rawValue: name) else {
                throw .usage("\(command): --smart needs centre or attention, not '\(value)'")
            }
            serve.server.smartCrop = mode
        }

        // Fetching: many origins at once (ImageServer caps each fetch at the request deadline).
        serve.server.downloaderConfiguration.maxConcurrentDownloads = 16

        // Caches.
        switch try CacheChoice(arguments, command: command) {
        case .shared: break
        case .directory(let url): serve.cacheLocation = .directory(url.standardizedFileURL)
        case .disabled: serve.cacheLocation = .disabled
        }
        serve.memoryCacheBytes = try (Self.integer(arguments, "--memory-cache-mb", in: 0...1 << 30, command: command)).map { $0 << 20 } ?? serve.memoryCacheBytes
        serve.diskCacheBytes = try (Self.integer(arguments, "--disk-cache-mb", in: 0...1 << 30, command: command)).map { $0 << 20 } ?? serve.diskCacheBytes
        if let value = arguments.value("--memory-limit") {
            guard let bytes = ByteCount.parse(value), bytes >= 256 << 20 else {
                throw .usage("\(command): --memory-limit needs a size of at least 256M (1G, 768M, 2147483648), not '\(value)'")
            }
            serve.memoryLimit = bytes
        }
        // The memory split (originals, reduced copies, results) is the library's:
        // ImageServeConfiguration.effectiveServerConfiguration.
        let redisURL = try arguments.value("--redis").map { url throws(CLIError) in try ServeRedisURL.configuration(url, command: command) }
        serve.redis = try ServeRedisTopology.configuration(url: redisURL, arguments, command: command)
        if let namespace = arguments.value("--redis-namespace") {
            guard !namespace.isEmpty else { throw .usage("\(command): --redis-namespace is empty") }
            serve.redisNamespace = namespace
        }

        // The access log.
        switch arguments.value("--access-log") {
        case nil, "-", "stderr": serve.accessLog = .standardError
        case "off", "none": serve.accessLog = .off
        case let path?:
            guard !path.isEmpty else { throw .usage("\(command): --access-log needs a file, '-' or 'off'") }
            serve.accessLog = .file(path)
        }
    }

    /// The value of `option` as a whole number in `range`, or `nil` when it was not given.
    static func integer(_ arguments: ParsedArguments, _ option: String, in range: ClosedRange<Int>, command: String) throws(CLIError) -> Int? {
        guard let value = arguments.value(option) else { return nil }
        guard let number = Int(value), range.contains(number) else {
            let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
            throw .usage("\(command): \(option) needs a whole number from \(range.lowerBound)\(upper), not '\(value)'")
        }
        return number
    }

    /// The key in `path`: its contents without the whitespace and line breaks around them.
    static func readKey(_ path: String, command: String) throws(CLIError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .usage("\(command): cannot read the key file \(path): \(ErrorReport(error).message)")
        }
        guard data.count <= 64 * 1024 else { throw .usage("\(command): the key file \(path) is over 64 KB; is it the right file?") }
        let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw .usage("\(command): the key file \(path) is empty") }
        return key
    }
}
