import Foundation
import Testing
import SwiftWebImage
import WebImageServe
import WebImageServer
import WebPCoder
import RedisCache
@testable import WebImageCLIKit

/// `webimage serve`'s options, their environment variables and their checks, in process.
@Suite struct ServeOptionsTests {
    let workspace = Workspace()

    func options(_ arguments: [String], environment: [String: String] = [:]) throws(CLIError) -> ServeOptions {
        let parser = ArgumentParser(command: "serve", flags: ServeOptions.flags, options: ServeOptions.valueOptions, repeatable: ServeOptions.repeatable)
        let parsed = try parser.parse(arguments)
        return try ServeOptions(ServeEnvironment.merge(parsed, environment: environment, command: "serve"), command: "serve")
    }

    func usageMessage(_ arguments: [String], environment: [String: String] = [:]) -> String? {
        do {
            _ = try options(arguments, environment: environment)
            return nil
        } catch {
            #expect(error.kind == .usage)
            return error.message
        }
    }

    @Test func shrinkOnLoadIsOnUnlessTurnedOff() throws {
        #expect(try options(["--key", "k"]).server.shrinksOnLoad)
        #expect(try !options(["--key", "k", "--no-shrink-on-load"]).server.shrinksOnLoad)
    }

    @Test func defaultsAreThumborsPortAndSafe() throws {
        let options = try options(["--key", "secret"])
        #expect(options.http.port == 8888)
        #expect(options.http.host == "0.0.0.0")
        #expect(options.server.securityKey == "secret")
        #expect(!options.server.allowsUnsigned)
        #expect(!options.server.allowsPrivateSources)
        #expect(options.server.fileRoot == nil)
        #expect(options.cacheLocation == .standard)
        #expect(options.redis == nil)
        #expect(options.accessLog == .standardError)
        #expect(options.webpMethod == 2)  // issue 36: under half of method 4's encode time
        #expect(try self.options(["--key", "k", "--webp-method", "5"]).webpMethod == 5)
        // 512 MiB: half for decoded originals (ImageServeCaches), a quarter each for the server's
        // reduced copies and encoded results (the library's split).
        #expect(options.memoryCacheBytes == 512 << 20)
        let split = try self.options(["--key", "k", "--memory-cache-mb", "200"]).serve.effectiveServerConfiguration
        #expect(split.reducedOriginalsCapacity == 50 << 20)
        #expect(split.resultMemoryCapacity == 50 << 20)
        let uncached = try self.options(["--key", "k", "--no-cache"]).serve.effectiveServerConfiguration
        #expect(uncached.reducedOriginalsCapacity == 0 && uncached.resultMemoryCapacity == 0)
    }

    /// The server decodes and encodes with coders of its own: the built-in and plug-in coders,
    /// WebP with `--webp-method`, never the WIRL demo format, and no shared manager is changed.
    @Test func serveUsesCodersOfItsOwn() throws {
        let before = CodersManager.shared.coders.count
        let server = try ServeCommand.makeServer(try options(["--allow-unsigned", "--no-cache", "--access-log", "off", "--webp-method", "3"]), command: "serve")
        #expect(CodersManager.shared.coders.count == before)
        let coders = try #require(server.configuration.coder as? CodersManager)
        #expect(!coders.coders.contains { $0 is RunLengthImageCoder })
        #expect((coders.coders.last as? WebPCoder)?.method == 3)
        #expect(coders.canEncode(to: .webp) && coders.canEncode(to: .avif) && coders.canEncode(to: .jpeg))
        // Without the option, WebP answers are encoded at method 2 (the first WebP coder asked).
        for (arguments, method) in [([String](), 2), (["--webp-method", "4"], 4), (["--webp-method", "1"], 1)] {
            let server = try ServeCommand.makeServer(try options(["--allow-unsigned", "--no-cache", "--access-log", "off"] + arguments), command: "serve")
            let coders = try #require(server.configuration.coder as? CodersManager)
            #expect(coders.coders.reversed().compactMap { $0 as? WebPCoder }.first?.method == method, "\(arguments)")
        }
    }

    @Test func aKeyOrAllowUnsignedIsRequired() throws {
        let message = try #require(usageMessage([]))
        #expect(message.contains("--key, --key-file or WEBIMAGE_SERVE_KEY"))
        #expect(message.contains("--allow-unsigned"))
        #expect(try options(["--allow-unsigned", "--keep-profile"]).server.colorProfileHandling == .keep)
        #expect(try options(["--allow-unsigned"], environment: ["WEBIMAGE_SERVE_KEEP_PROFILE": "1"]).server.colorProfileHandling == .keep)
        let unsigned = try options(["--allow-unsigned"])
        #expect(unsigned.server.allowsUnsigned && unsigned.server.securityKey == nil)
    }

    @Test func everyOptionHasAnEnvironmentVariable() throws {
        #expect(ServeEnvironment.variable(for: "--max-source-bytes") == "WEBIMAGE_SERVE_MAX_SOURCE_BYTES")
        let options = try options([], environment: [
            "WEBIMAGE_SERVE_KEY": "from-env",
            "WEBIMAGE_SERVE_PORT": "9000",
            "WEBIMAGE_SERVE_ALLOW_PRIVATE_SOURCES": "yes",
            "WEBIMAGE_SERVE_ALLOW_UNSIGNED": "0",
            "WEBIMAGE_SERVE_ALLOW_SOURCE_HOST": "a.example, *.b.example",
            "WEBIMAGE_SERVE_MAX_SOURCE_BYTES": "10M",
            "WEBIMAGE_SERVE_TIMEOUT": "2.5",
            "WEBIMAGE_SERVE_ORIGIN_TIMEOUT": "4",
            "WEBIMAGE_SERVE_QUEUE": "3",
            "WEBIMAGE_SERVE_WORKERS": "2",
            "WEBIMAGE_SERVE_THREADS": "5",
            "WEBIMAGE_SERVE_MAX_AGE": "60",
            "WEBIMAGE_SERVE_ACCESS_LOG": "off",
            "WEBIMAGE_SERVE_REDIS": "redis://127.0.0.1:6380/2",
        ])
        #expect(options.server.securityKey == "from-env")
        #expect(options.http.port == 9000)
        #expect(options.server.allowsPrivateSources)
        #expect(!options.server.allowsUnsigned)
        #expect(options.server.allowedSourceHosts == ["a.example", "*.b.example"])
        #expect(options.server.maximumSourceBytes == 10 << 20)
        #expect(options.server.requestTimeout == .milliseconds(2500))
        #expect(options.server.downloaderConfiguration.downloadTimeout == 4)
        #expect(options.server.maximumQueuedTransforms == 3)
        #expect(options.server.transformConcurrency == 2)
        #expect(options.http.threadCount == 5)
        #expect(options.server.cacheMaxAge == 60)
        #expect(options.accessLog == .off)
        #expect(options.redis?.port == 6380 && options.redis?.database == 2)
    }

    @Test func theCommandLineWinsOverTheEnvironment() throws {
        let options = try options(["--port", "7000", "--key", "flag"], environment: [
            "WEBIMAGE_SERVE_PORT": "9000", "WEBIMAGE_SERVE_KEY": "env",
            // --key-file is in --key's group: the environment gives neither when the command line names one.
            "WEBIMAGE_SERVE_KEY_FILE": "/nonexistent/key",
        ])
        #expect(options.http.port == 7000)
        #expect(options.server.securityKey == "flag")
        // --no-cache in the environment yields to --cache-dir on the command line.
        let cached = try self.options(["--allow-unsigned", "--cache-dir", workspace.path("c")], environment: ["WEBIMAGE_SERVE_NO_CACHE": "1"])
        #expect(cached.cacheLocation == .directory(URL(fileURLWithPath: workspace.path("c"), isDirectory: true).standardizedFileURL))
    }

    /// The memory limit (issue 33): the library's default (the cgroup's, else 1 GiB) until given.
    @Test func theMemoryLimitIsASize() throws {
        #expect(try options(["--allow-unsigned"]).serve.memoryLimit == nil)
        #expect(try options(["--allow-unsigned", "--memory-limit", "768M"]).serve.memoryLimit == 768 << 20)
        let fromEnvironment = try options(["--allow-unsigned"], environment: ["WEBIMAGE_SERVE_MEMORY_LIMIT": "2GiB"])
        #expect(fromEnvironment.serve.memoryLimit == 2 << 30)
        // A cache larger than the limit allows is lowered, not refused.
        let lowered = try options(["--allow-unsigned", "--memory-limit", "512M", "--memory-cache-mb", "1024"])
        #expect(lowered.serve.effectiveMemoryCacheBytes == (512 - 160) << 19)
    }

    @Test func aFlagVariableMustBeOnOrOff() throws {
        let message = try #require(usageMessage(["--key", "k"], environment: ["WEBIMAGE_SERVE_NO_CACHE": "maybe"]))
        #expect(message.contains("WEBIMAGE_SERVE_NO_CACHE") && message.contains("'maybe'"))
    }

    @Test func theKeyFileIsReadAndTrimmed() throws {
        let path = try workspace.write(Data("  s3cret-key\n\n".utf8), to: "key")
        #expect(try options(["--key-file", path]).server.securityKey == "s3cret-key")
        let empty = try workspace.write(Data("\n".utf8), to: "empty")
        #expect(usageMessage(["--key-file", empty])?.contains("is empty") == true)
        #expect(usageMessage(["--key-file", workspace.path("missing")])?.contains("cannot read the key file") == true)
        #expect(usageMessage(["--key", "a", "--key-file", path])?.contains("--key and --key-file cannot be used together") == true)
    }

    @Test(arguments: [
        (["--port", "70000"], "--port needs a whole number from 0 to 65535, not '70000'"),
        (["--workers", "0"], "--workers needs a whole number from 1 to 1024, not '0'"),
        (["--max-source-bytes", "lots"], "--max-source-bytes needs a size"),
        (["--timeout", "-1"], "--timeout needs a number of seconds above 0"),
        (["--origin-timeout", "0"], "--origin-timeout needs a number of seconds above 0"),
        (["--quality", "101"], "--quality needs a whole number from 1 to 100"),
        (["--webp-method", "7"], "--webp-method needs a whole number from 0 to 6"),
        (["--max-url-length", "3"], "--max-url-length needs a whole number from 16"),
        (["--max-filters", "0"], "--max-filters needs a whole number from 1 to 100000, not '0'"),
        (["--max-filter-work", "much"], "--max-filter-work needs a whole number from 1"),
        (["--max-connections-per-client", "-1"], "--max-connections-per-client needs a whole number from 0 to 1000000, not '-1'"),
        (["--client-timeout", "soon"], "--client-timeout needs a number of seconds (10, 2.5; 0 for none), not 'soon'"),
        (["--root", "/nonexistent/root"], "--root /nonexistent/root is not a directory"),
        (["--memory-limit", "100M"], "--memory-limit needs a size of at least 256M (1G, 768M, 2147483648), not '100M'"),
        (["--memory-limit", "lots"], "--memory-limit needs a size of at least 256M"),
        (["--redis", "rediss://cache.example"], "only redis:// URLs are supported"),
        (["--redis", "redis://127.0.0.1/x"], "the path must be a database number"),
        (["--redis", "redis://127.0.0.1:0"], "port 0 is out of range"),
        (["--cache-dir", "c", "--no-cache"], "--cache-dir and --no-cache cannot be used together"),
        (["--redis-sentinel", "10.0.0.5:26379"], "--redis-sentinel needs --redis-master NAME"),
        (["--redis-master", "mymaster"], "--redis-master needs --redis-sentinel"),
        (["--redis-read-replicas"], "--redis-read-replicas needs --redis-sentinel"),
        (["--redis-sentinel", "10.0.0.5:0", "--redis-master", "m"], "--redis-sentinel needs host:port entries separated by commas"),
        (["--redis-cluster", "a:1,,b:2"], "--redis-cluster needs host:port entries separated by commas"),
        (["--redis-cluster", "a:1", "--redis", "redis://x/2"], "a Redis Cluster has only database 0"),
        (["--redis-cluster", "a:1", "--redis-sentinel", "b:2", "--redis-master", "m"], "cannot be used together"),
        (["--allow-source-address", ","], "--allow-source-address needs an IP address or a CIDR network"),
        (["--proxy", ""], "--proxy needs an http:// or https:// proxy URL (http://proxy.internal:3128), not '': it is not a URL"),
        (["extra"], "takes no arguments, only options"),
    ])
    func badValuesAreUsageErrors(arguments: [String], expected: String) throws {
        let message = try #require(usageMessage(["--allow-unsigned"] + arguments))
        #expect(message.contains(expected), "\(message)")
    }

    /// The per-client connection limit and the request deadline (issue 33) reach the HTTP
    /// server's configuration, from flags or the environment.
    @Test func abuseLimitsReachTheHTTPServer() throws {
        let defaults = try options(["--key", "k"])
        #expect(defaults.http.connectionsPerClientLimit == 64)
        #expect(defaults.http.requestHeadTimeout == .seconds(10))
        let flags = try options(["--key", "k", "--max-connections-per-client", "0", "--client-timeout", "2.5"])
        #expect(flags.http.connectionsPerClientLimit == 0)
        #expect(flags.http.requestHeadTimeout == .milliseconds(2500))
        let environment = try options(["--key", "k"], environment: [
            "WEBIMAGE_SERVE_MAX_CONNECTIONS_PER_CLIENT": "8", "WEBIMAGE_SERVE_CLIENT_TIMEOUT": "0",
        ])
        #expect(environment.http.connectionsPerClientLimit == 8)
        #expect(environment.http.requestHeadTimeout == .zero)
        let server = try ServeCommand.makeServer(flags, command: "serve")
        #expect(server.http.configuration.connectionsPerClientLimit == 0)
        #expect(server.http.configuration.requestHeadTimeout == .milliseconds(2500))
    }

    @Test func theFilterLimitsAreSetAndARaisedOneIsARelaxedDefault() throws {
        let defaults = try options(["--key", "k"])
        #expect(defaults.serve.server.maximumFilterCount == 32 && defaults.serve.server.maximumFilterWork == 2_000_000_000)
        let set = try options(["--key", "k", "--max-filters", "8"], environment: ["WEBIMAGE_SERVE_MAX_FILTER_WORK": "5000000000"])
        #expect(set.serve.server.maximumFilterCount == 8 && set.serve.server.maximumFilterWork == 5_000_000_000)
        #expect(set.relaxedDefaults.map(\.option) == ["--max-filter-work"], "a lower limit is stricter, a higher one relaxed")
    }

    @Test func relaxedDefaultsNameTheSettingAndWhereItCameFrom() throws {
        func line(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
            let parser = ArgumentParser(command: "serve", flags: ServeOptions.flags, options: ServeOptions.valueOptions, repeatable: ServeOptions.repeatable)
            let commandLine = try parser.parse(arguments)
            let options = try ServeOptions(ServeEnvironment.merge(commandLine, environment: environment, command: "serve"), command: "serve")
            return options.relaxedDefaultsLine(commandLine: commandLine)
        }
        #expect(try line(["--key", "k"]) == "relaxed defaults: none")
        // Stricter limits relax nothing.
        #expect(try line(["--key", "k", "--timeout", "5", "--max-connections-per-client", "4", "--client-timeout", "3"]) == "relaxed defaults: none")
        #expect(try line(["--allow-unsigned", "--root", workspace.home.path], environment: [
            "WEBIMAGE_SERVE_ALLOW_PRIVATE_SOURCES": "yes",
            "WEBIMAGE_SERVE_MAX_CONNECTIONS_PER_CLIENT": "0",
            "WEBIMAGE_SERVE_CLIENT_TIMEOUT": "0",
            "WEBIMAGE_SERVE_MAX_SOURCE_BYTES": "1G",
        ]) == "relaxed defaults: --allow-unsigned [command line], --allow-private-sources [WEBIMAGE_SERVE_ALLOW_PRIVATE_SOURCES], "
            + "--root \(URL(fileURLWithPath: workspace.home.path).standardizedFileURL.path) (serves its files) [command line], "
            + "--max-source-bytes 1073741824 (default 52428800) [WEBIMAGE_SERVE_MAX_SOURCE_BYTES], "
            + "--max-connections-per-client 0 (no limit) [WEBIMAGE_SERVE_MAX_CONNECTIONS_PER_CLIENT], "
            + "--client-timeout 0 (no limit) [WEBIMAGE_SERVE_CLIENT_TIMEOUT]")
        #expect(try line(["--key", "k", "--timeout", "90.5", "--origin-timeout", "60", "--allow-source-host", "a.example"], environment: [
            "WEBIMAGE_SERVE_ALLOW_SOURCE_HOST": "ignored.example",
        ]) == "relaxed defaults: --timeout 90.5 (default 30) [command line], --origin-timeout 60 (default 15) [command line]; "
            + "sources only from a.example [command line]")
        #expect(try line(["--key", "k"], environment: ["WEBIMAGE_SERVE_ALLOW_SOURCE_HOST": "a.example,*.b.example"])
            == "relaxed defaults: none; sources only from a.example, *.b.example [WEBIMAGE_SERVE_ALLOW_SOURCE_HOST]")
    }

    // MARK: Where sources are fetched from: --allow-source-address, --proxy (issue 33)

    @Test func sourceAddressesAndTheProxyFromFlagsAndTheEnvironment() throws {
        let defaults = try options(["--key", "k"]).server.downloaderConfiguration
        #expect(defaults.allowedNonPublicAddresses.isEmpty)
        #expect(defaults.proxy == nil)
        let flags = try options([
            "--key", "k", "--allow-source-address", "127.0.0.1/32", "--allow-source-address", " 10.0.0.0/8, fd00::/8 ,",
            "--allow-source-address", "::1", "--proxy", "http://proxy.internal:3128",
        ]).server.downloaderConfiguration
        #expect(flags.allowedNonPublicAddresses == ["127.0.0.1/32", "10.0.0.0/8", "fd00::/8", "::1"])
        #expect(flags.proxy == URL(string: "http://proxy.internal:3128"))
        let environment = try options(["--key", "k"], environment: [
            "WEBIMAGE_SERVE_ALLOW_SOURCE_ADDRESS": "192.168.0.0/16, 2001:db8::1/128",
            "WEBIMAGE_SERVE_PROXY": "https://user:secret@[fd00::3]:8443/",
        ]).server.downloaderConfiguration
        #expect(environment.allowedNonPublicAddresses == ["192.168.0.0/16", "2001:db8::1/128"])
        #expect(environment.proxy == URL(string: "https://user:secret@[fd00::3]:8443/"))
        // The command line wins, and does not add to the environment's list.
        let both = try options(["--key", "k", "--allow-source-address", "10.1.2.3"], environment: ["WEBIMAGE_SERVE_ALLOW_SOURCE_ADDRESS": "10.9.9.9"])
        #expect(both.server.downloaderConfiguration.allowedNonPublicAddresses == ["10.1.2.3"])
        // The server's downloader gets them (the address guard stays on).
        let server = try ServeCommand.makeServer(try options(["--allow-unsigned", "--no-cache", "--access-log", "off", "--allow-source-address", "10.0.0.0/8", "--proxy", "http://127.0.0.1:3128"]), command: "serve")
        #expect(server.images.configuration.downloaderConfiguration.allowedNonPublicAddresses == ["10.0.0.0/8"])
        #expect(server.images.configuration.downloaderConfiguration.proxy == URL(string: "http://127.0.0.1:3128"))
        #expect(!server.images.configuration.allowsPrivateSources)
    }

    /// Every entry the address guard cannot read is refused at start-up, naming it: the guard
    /// would otherwise refuse every connection. The check is the guard's own parser.
    @Test(arguments: [
        "10.0.0.0/33", "::/129", "fd00::/-1", "300.1.1.1", "10.0.0.1/", "10.0.0.0/8/8", "images.example", "10.0.0.0/eight",
        "fe80::1%eth0", "1.2.3", "[::1]",
    ])
    func anAddressTheGuardCannotReadIsAUsageErrorNamingIt(entry: String) throws {
        for (arguments, environment) in [(["--allow-source-address", "127.0.0.1, \(entry)"], [:]), ([], ["WEBIMAGE_SERVE_ALLOW_SOURCE_ADDRESS": "127.0.0.1,\(entry)"])] {
            let message = try #require(usageMessage(["--allow-unsigned"] + arguments, environment: environment))
            #expect(message == "serve: --allow-source-address needs an IP address or a CIDR network (10.1.0.0/16, 192.168.1.7, "
                + "fd00::/8; a prefix up to 32 for IPv4, 128 for IPv6), not '\(entry)'")
        }
        #expect(!DownloaderConfiguration.isValidAllowedNonPublicAddress(entry))
    }

    @Test(arguments: ["0.0.0.0/0", "127.0.0.1", "10.0.0.0/8", "192.168.1.7/32", "::/0", "::1", "fd00::/8", "::ffff:10.0.0.0/104", "2001:db8::/32"])
    func everyAddressAndNetworkFormIsAccepted(entry: String) throws {
        #expect(try options(["--allow-unsigned", "--allow-source-address", entry]).server.downloaderConfiguration.allowedNonPublicAddresses == [entry])
    }

    @Test(arguments: [
        ("socks5://proxy.internal:1080", "its scheme must be http or https (a CONNECT tunnel keeps the address guard on the target)"),
        ("proxy.internal:3128", "its scheme must be http or https"),
        ("http://", "it has no host"),
        ("http://proxy.internal:3128/path", "a proxy URL has no path, query or fragment"),
        ("http://proxy.internal:3128?x=1", "a proxy URL has no path, query or fragment"),
    ])
    func aProxyThatIsNotAnHTTPProxyURLIsAUsageError(value: String, problem: String) throws {
        let message = try #require(usageMessage(["--allow-unsigned", "--proxy", value]))
        #expect(message.hasPrefix("serve: --proxy needs an http:// or https:// proxy URL (http://proxy.internal:3128), not '\(value)': "), "\(message)")
        #expect(message.contains(problem), "\(message)")
        let environment = try #require(usageMessage(["--allow-unsigned"], environment: ["WEBIMAGE_SERVE_PROXY": value]))
        #expect(environment == message)
    }

    @Test func aProxysPasswordIsNeverShown() throws {
        let message = try #require(usageMessage(["--allow-unsigned", "--proxy", "http://user:s3cret@proxy.internal:3128/x"]))
        #expect(!message.contains("s3cret") && message.contains("'http://user:***@proxy.internal:3128/x'"), "\(message)")
        let parser = ArgumentParser(command: "serve", flags: ServeOptions.flags, options: ServeOptions.valueOptions, repeatable: ServeOptions.repeatable)
        let commandLine = try parser.parse(["--key", "k"])
        let options = try ServeOptions(ServeEnvironment.merge(commandLine, environment: ["WEBIMAGE_SERVE_PROXY": "http://user:s3cret@proxy.internal:3128"], command: "serve"), command: "serve")
        #expect(options.relaxedDefaultsLine(commandLine: commandLine)
            == "relaxed defaults: none; origins fetched through the proxy http://user:***@proxy.internal:3128 [WEBIMAGE_SERVE_PROXY]")
    }

    @Test func aSourceAddressIsARelaxedDefaultAndTheProxyIsShownAfterThem() throws {
        func line(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
            let parser = ArgumentParser(command: "serve", flags: ServeOptions.flags, options: ServeOptions.valueOptions, repeatable: ServeOptions.repeatable)
            let commandLine = try parser.parse(arguments)
            let options = try ServeOptions(ServeEnvironment.merge(commandLine, environment: environment, command: "serve"), command: "serve")
            return options.relaxedDefaultsLine(commandLine: commandLine)
        }
        #expect(try line(["--key", "k", "--allow-source-address", "10.1.0.0/16", "--allow-source-address", "fd00::7"])
            == "relaxed defaults: --allow-source-address 10.1.0.0/16,fd00::7 (non-public, fetched from) [command line]")
        #expect(try line(["--allow-unsigned", "--allow-source-host", "images.internal", "--proxy", "http://127.0.0.1:3128"],
                         environment: ["WEBIMAGE_SERVE_ALLOW_SOURCE_ADDRESS": "10.1.0.0/16"])
            == "relaxed defaults: --allow-unsigned [command line], --allow-source-address 10.1.0.0/16 (non-public, fetched from) "
            + "[WEBIMAGE_SERVE_ALLOW_SOURCE_ADDRESS]; sources only from images.internal [command line]; "
            + "origins fetched through the proxy http://127.0.0.1:3128 [command line]")
    }

    @Test func redisURLs() throws {
        let full = try ServeRedisURL.configuration("redis://user:p%40ss@cache.internal:6390/3", command: "serve")
        #expect(full.host == "cache.internal" && full.port == 6390 && full.database == 3)
        #expect(full.username == "user" && full.password == "p@ss")
        let passwordOnly = try ServeRedisURL.configuration("redis://:secret@10.0.0.5", command: "serve")
        #expect(passwordOnly.username == nil && passwordOnly.password == "secret" && passwordOnly.port == 6379)
        let ipv6 = try ServeRedisURL.configuration("redis://[::1]:6379", command: "serve")
        #expect(ipv6.host == "::1")
    }

    /// `--redis-sentinel`, `--redis-cluster` (issue 39): the topology, with `--redis` giving
    /// the credentials and database only.
    @Test func redisTopologies() throws {
        let sentinel = try options([
            "--allow-unsigned", "--redis-sentinel", "10.0.0.5,[::1]:26380", "--redis-master", "mymaster",
            "--redis", "redis://:secret@ignored:1/2", "--redis-sentinel-password", "s3", "--redis-read-replicas",
        ]).redis
        #expect(sentinel?.password == "secret" && sentinel?.database == 2)
        #expect(sentinel?.topology == .sentinel(RedisClient.SentinelConfiguration(
            sentinels: [RedisEndpoint(host: "10.0.0.5", port: 26379), RedisEndpoint(host: "::1", port: 26380)],
            masterName: "mymaster", password: "s3", readFromReplicas: true
        )))
        let cluster = try options(["--allow-unsigned", "--redis-cluster", "10.0.0.5:7000,10.0.0.6"]).redis
        #expect(cluster?.topology == .cluster(RedisClient.ClusterConfiguration(seeds: [
            RedisEndpoint(host: "10.0.0.5", port: 7000), RedisEndpoint(host: "10.0.0.6", port: 6379),
        ])))
        #expect(cluster?.endpoint == "cluster via 10.0.0.5:7000,10.0.0.6:6379")
        #expect(try options(["--allow-unsigned"]).redis == nil)
    }

    @Test func anAccessLogLineIsOneBoundedTimestampedLine() throws {
        let entry = ImageServerAccessLogEntry(
            method: "GET", path: "/unsafe/10x10/a b\u{1B}[2J\n" + String(repeating: "x", count: 3000), status: 200, bytes: 1234,
            duration: 0.012, cacheTier: .none, remoteAddress: "127.0.0.1"
        )
        let line = ImageServeAccessLog.line(for: entry, at: Date(timeIntervalSince1970: 1_764_107_700.25))
        #expect(line.hasPrefix("2025-11-25T21:55:00.250Z 127.0.0.1 GET /unsafe/10x10/a"))
        #expect(line.contains(" 200 1234 "))
        #expect(line.hasSuffix("\n"))
        #expect(line.dropLast().allSatisfy { $0 != "\n" && $0 != "\u{1B}" && $0 != "\r" })
        #expect(line.utf8.count < 1200, "the path is cut: \(line.utf8.count) bytes")
    }
}
