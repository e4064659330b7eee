import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageCLIKit
#if canImport(Glibc)
import Glibc
#endif

/// `webimage serve --allow-source-address` and `--proxy` as a child process against loopback
/// servers (issue 33): a named inner address is fetched from while the address guard stays on
/// for every other one, and a proxy carries the fetches while the guard still judges each target.
@Suite struct ServeSourceAddressTests {
    let workspace = Workspace()
    let origin: LoopbackHTTPServer
    let proxy: LoopbackHTTPServer
    /// The origin's image (64x48) and the proxy's (48x48): the answer's size tells which one answered.
    let jpeg: Data
    let proxiedJPEG: Data

    init() throws {
        WebImageCLI.registerLaunchComponents()
        jpeg = try Fixtures.jpeg(width: 64, height: 48)
        proxiedJPEG = try Fixtures.jpeg(width: 48, height: 48)
        origin = try LoopbackHTTPServer(routes: ["/photo.jpg": .data(jpeg, contentType: "image/jpeg")])
        proxy = try LoopbackHTTPServer(routes: ["/photo.jpg": .data(proxiedJPEG, contentType: "image/jpeg")])
    }

    /// The unsafe path of a 32x32 fit-in of `source`.
    func fitPath(_ source: String) -> String {
        "/unsafe/fit-in/32x32/" + source
    }

    @Test func aNamedLoopbackAddressIsFetchedFromAndNoOtherIs() async throws {
        defer { origin.stop(); proxy.stop() }
        let source = origin.url(for: "/photo.jpg").absoluteString  // http://127.0.0.1:PORT/photo.jpg
        // Without it (and without --allow-private-sources) the guard refuses the loopback origin.
        let guarded = try await ServeProcess.start(["--allow-unsigned", "--no-cache"], home: workspace.home)
        #expect(try await ServeClient.get(guarded.url(fitPath(source))).status == 403)
        guarded.send(SIGTERM)
        #expect(await guarded.waitForExit() == 0)
        #expect(origin.statistics(for: "/photo.jpg").requestCount == 0)
        // Another loopback address named: still refused.
        let other = try await ServeProcess.start(["--allow-unsigned", "--no-cache", "--allow-source-address", "127.0.0.2"], home: workspace.home)
        #expect(try await ServeClient.get(other.url(fitPath(source))).status == 403)
        other.send(SIGTERM)
        #expect(await other.waitForExit() == 0)
        #expect(origin.statistics(for: "/photo.jpg").requestCount == 0)
        // 127.0.0.1/32 named (from the environment here): fetched, and listed at start-up.
        let allowed = try await ServeProcess.start(["--allow-unsigned", "--no-cache"], home: workspace.home,
                                                   environment: ["WEBIMAGE_SERVE_ALLOW_SOURCE_ADDRESS": "127.0.0.1/32"])
        let answer = try await ServeClient.get(allowed.url(fitPath(source)))
        #expect(answer.status == 200, "\(allowed.errorText)")
        #expect(try CodersManager.shared.decode(answer.body).pixelSize == PixelSize(width: 32, height: 24))
        #expect(origin.statistics(for: "/photo.jpg").requestCount == 1)
        #expect(await allowed.waitForErrorLine(containing: "webimage serve: caches:") != nil)
        #expect(allowed.errorText.contains("--allow-source-address 127.0.0.1/32 (non-public, fetched from) [WEBIMAGE_SERVE_ALLOW_SOURCE_ADDRESS]"), "\(allowed.errorText)")
        allowed.send(SIGTERM)
        #expect(await allowed.waitForExit() == 0)
    }

    @Test func aProxyCarriesTheFetchAndTheGuardStillJudgesTheTarget() async throws {
        defer { origin.stop(); proxy.stop() }
        // The target is 127.0.0.2 (nobody listens there): the proxy on 127.0.0.1 accepts the
        // CONNECT to it and answers the tunnelled GET itself. The proxy's own address needs no
        // allowance; the target's does.
        let target = "127.0.0.2:\(origin.port)"
        proxy.route(target, .steps([.head(status: 200, headers: [("Content-Length", "0")])]))
        let source = "http://\(target)/photo.jpg"
        let refused = try await ServeProcess.start(["--allow-unsigned", "--no-cache", "--proxy", proxy.baseURL.absoluteString], home: workspace.home)
        #expect(try await ServeClient.get(refused.url(fitPath(source))).status == 403)
        #expect(proxy.totalRequestCount == 0, "a refused target is never asked of the proxy")
        refused.send(SIGTERM)
        #expect(await refused.waitForExit() == 0)

        let proxied = try await ServeProcess.start(
            ["--allow-unsigned", "--no-cache", "--allow-source-address", "127.0.0.2"], home: workspace.home,
            environment: ["WEBIMAGE_SERVE_PROXY": proxy.baseURL.absoluteString]
        )
        let answer = try await ServeClient.get(proxied.url(fitPath(source)))
        #expect(answer.status == 200, "\(proxied.errorText)")
        #expect(try CodersManager.shared.decode(answer.body).pixelSize == PixelSize(width: 32, height: 32), "the proxy's image")
        #expect(proxy.requests.map(\.method) == ["CONNECT", "GET"])
        #expect(proxy.requests.map(\.target) == [target, "/photo.jpg"])
        #expect(origin.totalRequestCount == 0)
        #expect(await proxied.waitForErrorLine(containing: "webimage serve: caches:") != nil)
        #expect(proxied.errorText.contains("; origins fetched through the proxy \(proxy.baseURL.absoluteString) [WEBIMAGE_SERVE_PROXY]"), "\(proxied.errorText)")
        proxied.send(SIGTERM)
        #expect(await proxied.waitForExit() == 0)
    }

    @Test func theEnvironmentsProxiesAreNotUsedByDefault() async throws {
        defer { origin.stop(); proxy.stop() }
        let source = origin.url(for: "/photo.jpg").absoluteString
        let server = try await ServeProcess.start(
            ["--allow-unsigned", "--no-cache", "--allow-source-address", "127.0.0.1"], home: workspace.home,
            environment: [
                "http_proxy": proxy.baseURL.absoluteString, "HTTP_PROXY": proxy.baseURL.absoluteString, "all_proxy": proxy.baseURL.absoluteString,
                "no_proxy": "", "NO_PROXY": "",
            ]
        )
        let answer = try await ServeClient.get(server.url(fitPath(source)))
        #expect(answer.status == 200, "\(server.errorText)")
        #expect(try CodersManager.shared.decode(answer.body).pixelSize == PixelSize(width: 32, height: 24))
        #expect(origin.statistics(for: "/photo.jpg").requestCount == 1, "fetched directly")
        #expect(proxy.totalRequestCount == 0)
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }
}
