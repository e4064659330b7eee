import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Proxies from the standard environment variables, as libcurl reads them (`http_proxy`,
/// `https_proxy`, `no_proxy`). The variables are set for a child process only (the
/// `webimage-download-probe` executable, one download with a `Downloader`), never in the test
/// process. The "proxy" is a ``LoopbackHTTPServer``: it answers an absolute-form request
/// (`GET http://host/path`) by its path, and records a `CONNECT`.
@Suite(.timeLimit(.minutes(1)))
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
