import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Proxies from the standard environment variables, as libcurl reads them (`http_proxy`,
/// `https_proxy`, `no_proxy`). The variables are set for a child process only (the
/// `webimage-download-probe` executable, one download with a `Downloader`), never in the test
/// process. The "proxy" is a ``LoopbackHTTPServer``: it answers an absolute-form request
/// (`GET http://host/path`) by its path, and records a `CONNECT`.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderProxyTests {
    let origin: LoopbackHTTPServer
    let proxy: LoopbackHTTPServer
    /// Different sizes, so that the probe's `ok BYTES` tells which server answered.
    let direct = Fixtures.wiraw(width: 16, height: 12)
    let proxied = Fixtures.wiraw(width: 8, height: 4)

    init() throws {
        origin = try LoopbackHTTPServer()
        origin.route("/image", .data(direct, contentType: Fixtures.wirawType))
        proxy = try LoopbackHTTPServer()
        proxy.route("/image", .data(proxied, contentType: Fixtures.wirawType))
    }

    private func stop() {
        origin.stop()
        proxy.stop()
    }

    @Test func httpProxyCarriesAnHTTPDownload() async throws {
        defer { stop() }
        let target = "http://images.example:\(origin.port)/image"
        let output = try await Self.probe([target], environment: ["http_proxy": proxy.baseURL.absoluteString])
        #expect(output == "ok \(proxied.count)")
        // The proxy got the absolute URL; the origin nothing.
        #expect(proxy.requests.map(\.target) == [target])
        #expect(origin.totalRequestCount == 0)
    }

    @Test func noProxyBypassesTheProxy() async throws {
        defer { stop() }
        let target = "http://images.example:\(origin.port)/image"
        let output = try await Self.probe(
            [target, "--resolve", "images.example:\(origin.port):127.0.0.1"],
            environment: ["http_proxy": proxy.baseURL.absoluteString, "no_proxy": "other.example,images.example"]
        )
        #expect(output == "ok \(direct.count)")
        #expect(origin.requests.map(\.target) == ["/image"])
        #expect(proxy.totalRequestCount == 0)
    }

    @Test func httpsProxyTunnelsAnHTTPSDownload() async throws {
        defer { stop() }
        // The "proxy" refuses the tunnel (404 to CONNECT): what counts is that it was asked.
        let output = try await Self.probe(["https://secure.example:8443/image"], environment: ["https_proxy": proxy.baseURL.absoluteString])
        #expect(output.hasPrefix("refused "))
        let connect = try #require(proxy.requests.first)
        #expect(connect.method == "CONNECT")
        #expect(connect.target == "secure.example:8443")
        #expect(origin.totalRequestCount == 0)
    }

    // MARK: The address guard and proxies

    @Test func theGuardKeepsTheEnvironmentsProxyOut() async throws {
        defer { stop() }
        // A proxy in the environment would fetch the target for us, unchecked: with the guard
        // on it is not used, the connection is direct and judged (127.0.0.1 allowed here).
        let target = "http://images.example:\(origin.port)/image"
        let output = try await Self.probe(
            [target, "--resolve", "images.example:\(origin.port):127.0.0.1", "--refuse-non-public", "--allow", "127.0.0.1"],
            environment: ["http_proxy": proxy.baseURL.absoluteString, "all_proxy": proxy.baseURL.absoluteString]
        )
        #expect(output == "ok \(direct.count)")
        #expect(origin.requests.map(\.target) == ["/image"])
        #expect(proxy.totalRequestCount == 0)
        // ...and without the allowance the direct connection is refused, still not proxied.
        let refused = try await Self.probe([target, "--resolve", "images.example:\(origin.port):127.0.0.1", "--refuse-non-public"], environment: ["http_proxy": proxy.baseURL.absoluteString])
        #expect(refused.hasPrefix("refused "))
        #expect(refused.contains("127.0.0.1, a loopback (127.0.0.0/8) address"))
        #expect(proxy.totalRequestCount == 0)
    }

    @Test func anExplicitProxyCarriesTheDownloadWithoutTheGuard() async throws {
        defer { stop() }
        let (downloader, _) = Fixtures.downloader { $0.proxy = proxy.baseURL }
        let target = try #require(URL(string: "http://images.example:8080/image"))
        #expect(try await downloader.requestImage(with: target).data == proxied)
        #expect(proxy.requests.map(\.target) == [target.absoluteString])
        #expect(origin.totalRequestCount == 0)
    }

    @Test func withTheGuardAnExplicitProxyTunnelsToTheCheckedAddress() async throws {
        defer { stop() }
        // The "proxy" accepts the CONNECT to 127.0.0.1:8080 (the address the name was checked
        // at, not the name), then answers the tunnelled GET itself.
        proxy.route("127.0.0.1:8080", .steps([.head(status: 200, headers: [("Content-Length", "0")])]))
        let (downloader, _) = Fixtures.downloader {
            $0.proxy = proxy.baseURL
            $0.refusesNonPublicAddresses = true
            $0.allowedNonPublicAddresses = ["127.0.0.1"]
            $0.resolveOverrides = ["images.example:8080:127.0.0.1"]
        }
        let target = try #require(URL(string: "http://images.example:8080/image"))
        #expect(try await downloader.requestImage(with: target).data == proxied)
        let requests = proxy.requests
        #expect(requests.map(\.method) == ["CONNECT", "GET"])
        #expect(requests.map(\.target) == ["127.0.0.1:8080", "/image"])
        #expect(requests.last?.header("Host") == "images.example:8080")
        #expect(origin.totalRequestCount == 0)
    }

    @Test func withTheGuardAnExplicitProxyIsNotAskedForANonPublicTarget() async throws {
        defer { stop() }
        let (downloader, _) = Fixtures.downloader {
            $0.proxy = proxy.baseURL
            $0.refusesNonPublicAddresses = true
            $0.resolveOverrides = ["images.example:8080:10.1.2.3", "mixed.example:8080:93.184.216.34,169.254.169.254"]
        }
        for (name, verdict) in [("images.example", "10.1.2.3, a private (10.0.0.0/8) address"), ("mixed.example", "169.254.169.254, a link-local (169.254.0.0/16) address")] {
            let url = try #require(URL(string: "http://\(name):8080/image"))
            let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
            #expect(error.code == .invalidDownloadResponse)
            #expect(error.message.contains("refused: it would connect to \(verdict)"))
            #expect(error.underlyingError as? DownloadAddressRefusal == DownloadAddressRefusal(address: verdict))
            #expect(downloader.shouldBlockFailedURL(url, error: error))
        }
        // An IP literal is judged too.
        let literal = try #require(URL(string: "http://[::1]:8080/image"))
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, literal)))
        #expect(error.message.contains("::1, the loopback address (::1)"))
        #expect(proxy.totalRequestCount == 0)
    }

    @Test func withTheGuardARedirectThroughTheProxyIsCheckedAgain() async throws {
        defer { stop() }
        proxy.route("127.0.0.1:8080", .steps([.head(status: 200, headers: [("Content-Length", "0")])]))
        proxy.route("/start", .redirect(to: "http://inner.example:8080/image"))
        let (downloader, _) = Fixtures.downloader {
            $0.proxy = proxy.baseURL
            $0.refusesNonPublicAddresses = true
            $0.allowedNonPublicAddresses = ["127.0.0.1"]
            $0.resolveOverrides = ["images.example:8080:127.0.0.1", "inner.example:8080:192.168.7.7"]
        }
        let url = try #require(URL(string: "http://images.example:8080/start"))
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
        #expect(error.message.contains("http://inner.example:8080/image refused: it would connect to 192.168.7.7, a private (192.168.0.0/16) address"))
        #expect(proxy.requests.map(\.target) == ["127.0.0.1:8080", "/start"])
    }

    @Test(arguments: ["ftp://proxy.example:21", "socks5://proxy.example:1080", "http:///nohost"])
    func aProxyURLThatCannotCarryGuardedDownloadsIsRefusedNamingIt(proxyURL: String) async throws {
        defer { stop() }
        let proxyURL = try #require(URL(string: proxyURL))
        let (downloader, _) = Fixtures.downloader {
            $0.proxy = proxyURL
            $0.refusesNonPublicAddresses = true
        }
        let url = origin.url(for: "/image")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
        #expect(error.code == .invalidDownloadOperation)
        #expect(error.message.contains("DownloaderConfiguration.proxy \(proxyURL.absoluteString)"))
        #expect(origin.totalRequestCount == 0)
    }

    // MARK: Child process

    /// The variables libcurl reads for proxies, in both cases: removed from the child's
    /// environment before the test's own are added.
    static let proxyVariables: Set<String> = ["http_proxy", "https_proxy", "all_proxy", "no_proxy"]

    /// Runs `webimage-download-probe arguments...` with the test process's environment minus
    /// every proxy variable, plus `environment`; returns its output line.
    static func probe(_ arguments: [String], environment: [String: String]) async throws -> String {
        var variables = ProcessInfo.processInfo.environment.filter { !proxyVariables.contains($0.key.lowercased()) }
        variables.merge(environment) { _, new in new }
        // The read and the wait run on threads of their own, not on the concurrency pool.
        let data = try await ChildProcess.run(try probeURL().path, arguments, environment: variables).output
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `webimage-download-probe`, next to the running test binary (this target depends on it,
    /// so that it is built with the tests).
    static func probeURL() throws -> URL {
        let executable = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("webimage-download-probe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        Issue.record("webimage-download-probe was not found next to \(executable); build it with the tests (swift build --build-tests)")
        throw CancellationError()
    }
}
