import WebImageServe

extension ServeOptions {
    /// A setting that relaxes one of `webimage serve`'s safe defaults.
    struct RelaxedDefault: Sendable, Equatable {
        /// The option that sets it (`--allow-unsigned`).
        var option: String
        /// The setting as the start-up line shows it (`--allow-unsigned`,
        /// `--max-connections-per-client 0 (no limit)`, `--timeout 600 (default 30)`).
        var setting: String
    }

    /// Every setting of these options that relaxes a safe default, in the order of the help:
    /// unsigned URLs, private sources, the non-public addresses `--allow-source-address` lets
    /// through, a file root, and every limit given a value looser than its default (higher, or
    /// 0 for none where 0 turns the limit off). Limits made stricter, `--allow-source-host` (it
    /// narrows where sources come from) and `--proxy` (the address guard still judges every
    /// target) are not relaxations.
    var relaxedDefaults: [RelaxedDefault] {
        let safe = ImageServeConfiguration()
        var relaxed: [RelaxedDefault] = []
        func flag(_ option: String, _ isSet: Bool) {
            if isSet { relaxed.append(RelaxedDefault(option: option, setting: option)) }
        }
        func limit<Value: Comparable>(_ option: String, _ value: Value, _ safeValue: Value, _ text: (Value) -> String, zeroIsNone: Value? = nil) {
            if let zeroIsNone, value == zeroIsNone {
                relaxed.append(RelaxedDefault(option: option, setting: "\(option) \(text(value)) (no limit)"))
            } else if value > safeValue {
                relaxed.append(RelaxedDefault(option: option, setting: "\(option) \(text(value)) (default \(text(safeValue)))"))
            }
        }
        let number: (Int) -> String = { "\($0)" }
        let seconds: (Duration) -> String = { Self.secondsText($0) }
        flag("--allow-unsigned", serve.server.allowsUnsigned)
        flag("--allow-private-sources", serve.server.allowsPrivateSources)
        flag("--allow-svg", serve.server.allowsSVGSources)
        let addresses = serve.server.downloaderConfiguration.allowedNonPublicAddresses
        if !addresses.isEmpty {
            relaxed.append(RelaxedDefault(option: "--allow-source-address", setting: "--allow-source-address \(addresses.joined(separator: ",")) (non-public, fetched from)"))
        }
        if let root = serve.server.fileRoot {
            relaxed.append(RelaxedDefault(option: "--root", setting: "--root \(root.path) (serves its files)"))
        }
        limit("--max-source-bytes", serve.server.maximumSourceBytes, safe.server.maximumSourceBytes, number)
        limit("--max-source-pixels", serve.server.maximumSourcePixels, safe.server.maximumSourcePixels, number)
        limit("--max-total-pixels", serve.server.maximumTotalSourcePixels, safe.server.maximumTotalSourcePixels, number)
        limit("--max-frames", serve.server.maximumSourceFrames, safe.server.maximumSourceFrames, number)
        limit("--max-output", serve.server.maximumOutputDimension, safe.server.maximumOutputDimension, number)
        limit("--max-url-length", serve.server.maximumURLLength, safe.server.maximumURLLength, number)
        limit("--max-filters", serve.server.maximumFilterCount, safe.server.maximumFilterCount, number)
        limit("--max-filter-work", serve.server.maximumFilterWork, safe.server.maximumFilterWork, number)
        limit("--timeout", serve.server.requestTimeout, safe.server.requestTimeout, seconds)
        limit("--origin-timeout", serve.server.downloaderConfiguration.downloadTimeout, safe.server.downloaderConfiguration.downloadTimeout) { Self.secondsText(.milliseconds(Int64(($0 * 1000).rounded()))) }
        limit("--queue", serve.server.maximumQueuedTransforms, safe.server.maximumQueuedTransforms, number)
        limit("--max-connections", serve.http.connectionLimit, safe.http.connectionLimit, number)
        limit("--max-connections-per-client", serve.http.connectionsPerClientLimit, safe.http.connectionsPerClientLimit, number, zeroIsNone: 0)
        limit("--client-timeout", serve.http.requestHeadTimeout, safe.http.requestHeadTimeout, seconds, zeroIsNone: .zero)
        return relaxed
    }

    /// What `webimage serve` prints on standard error once it listens: every relaxed default
    /// with where it came from (`command line`, or the environment variable), then the source
    /// hosts when `--allow-source-host` narrows them, then the proxy origins are fetched through
    /// when `--proxy` names one (its password hidden). The proxy is not a relaxed default (the
    /// address guard still judges every target through it) but where fetches go is worth a look.
    /// - Parameter commandLine: The options of the command line alone (before the environment
    ///   was merged in).
    func relaxedDefaultsLine(commandLine: ParsedArguments) -> String {
        func origin(_ option: String) -> String {
            commandLine.has(option) || commandLine.values[option] != nil ? "command line" : ServeEnvironment.variable(for: option)
        }
        let relaxed = relaxedDefaults
        var line = "relaxed defaults: "
        line += relaxed.isEmpty ? "none" : relaxed.map { "\($0.setting) [\(origin($0.option))]" }.joined(separator: ", ")
        if !serve.server.allowedSourceHosts.isEmpty {
            line += "; sources only from \(serve.server.allowedSourceHosts.joined(separator: ", ")) [\(origin("--allow-source-host"))]"
        }
        if let proxy = serve.server.downloaderConfiguration.proxy {
            line += "; origins fetched through the proxy \(Self.proxyText(proxy)) [\(origin("--proxy"))]"
        }
        return line
    }

    /// `30`, `2.5`, `0.001`: a duration in seconds, as the options take it.
    static func secondsText(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
    }
}
