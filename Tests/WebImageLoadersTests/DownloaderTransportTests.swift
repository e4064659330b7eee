import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// The libcurl transport: redirect safety, content encoding, the total deadline, schemes,
/// per-host connections and the address guard.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderTransportTests {
    let server: LoopbackHTTPServer
    let image = Fixtures.wiraw()

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("/image", .data(image, contentType: Fixtures.wirawType))
    }

    @Test(arguments: ["file:///trap/secret.png", "data:image/png;base64,AAAA", "ftp://127.0.0.1/trap/secret.png", "gopher://127.0.0.1/x"])
    func redirectsToOtherSchemesAreRefusedBeforeAnyRequest(location: String) async throws {
        defer { server.stop() }
        server.route("/trap", .redirect(to: location))
        let (downloader, _) = Fixtures.downloader()
        let url = server.url(for: "/trap")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
        #expect(error.code == .invalidDownloadResponse)
        #expect(error.message.contains("redirect to a URL that is not http(s): \(location)"))
        // Nothing but the redirect itself was requested (URLSession used to GET /trap/secret.png).
        #expect(server.requests.map(\.path) == ["/trap"])
    }

    @Test func redirectLimitIsSixteenByDefault() async throws {
        defer { server.stop() }
        for hop in 0..<17 { server.route("/hop\(hop)", .redirect(to: "/hop\(hop + 1)")) }
        server.route("/hop17", .data(image, contentType: Fixtures.wirawType))
        let (downloader, _) = Fixtures.downloader()
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/hop0"))))
        #expect(error.message.contains("more than 16 redirects"))
        #expect(server.totalRequestCount == 17)
        // Sixteen hops are fine.
        #expect(try await downloader.requestImage(with: server.url(for: "/hop1")).data == image)
    }

    @Test func theFinalURLIsReportedInTheResponseEvent() async throws {
        defer { server.stop() }
        server.route("/moved", .redirect(to: "/image", status: 301))
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/moved")
        _ = try await downloader.requestImage(with: url)
        let responses = events.events.compactMap { event -> URL? in
            if case .receivedResponse(_, let response) = event { return response.url }
            return nil
        }
        #expect(responses == [server.url(for: "/image")])
        #expect(events.events.allSatisfy { $0.url == url })
        await events.wait(for: .stopped, url: url)
        let redirects = events.events.compactMap { event -> Int? in
            if case .collectedMetrics(_, let metrics) = event { return metrics.redirectCount }
            return nil
        }
        #expect(redirects == [1])
    }

    @Test func credentialsAndAuthHeadersAreNotSentToAnotherHost() async throws {
        defer { server.stop() }
        let other = try LoopbackHTTPServer()
        defer { other.stop() }
        other.route("/image", .data(image, contentType: Fixtures.wirawType))
        server.route("/away", .redirect(to: other.url(for: "/image").absoluteString))
        server.route("/here", .redirect(to: "/image"))
        let (downloader, _) = Fixtures.downloader { $0.requestModifier = .headers(["Authorization": "Bearer secret", "X-Kept": "yes"]) }
        _ = try await downloader.requestImage(with: server.url(for: "/away"))
        _ = try await downloader.requestImage(with: server.url(for: "/here"))
        let away = try #require(other.requests.first)
        #expect(away.header("Authorization") == nil)
        #expect(away.header("X-Kept") == "yes")
        let here = try #require(server.requests.last)
        #expect(here.path == "/image")
        #expect(here.header("Authorization") == "Bearer secret")
    }

    @Test func identityIsAskedForByDefault() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        _ = try await downloader.requestImage(with: server.url(for: "/image"))
        #expect(server.requests.first?.header("Accept-Encoding") == "identity")
    }

    @Test func gzipIsDecodedWhenOptedIn() async throws {
        defer { server.stop() }
        let compressed = try await Self.gzip(image)
        server.route("/gz", .data(compressed, contentType: Fixtures.wirawType, headers: [("Content-Encoding", "gzip")]))
        let (downloader, _) = Fixtures.downloader { $0.acceptedContentEncodings = [.gzip, .deflate] }
        let result = try await downloader.requestImage(with: server.url(for: "/gz"))
        #expect(result.data == image)
        #expect(server.requests.first?.header("Accept-Encoding") == "gzip, deflate")
    }

    @Test func aGzipBombStopsAtTheLimitCountingDecodedBytes() async throws {
        defer { server.stop() }
        let bomb = try await Self.gzip(Data(count: 8 << 20))
        #expect(bomb.count < 64 << 10)
        server.route("/bomb", .data(bomb, contentType: Fixtures.wirawType, headers: [("Content-Encoding", "gzip")]))
        let (downloader, _) = Fixtures.downloader {
            $0.acceptedContentEncodings = [.gzip]
            $0.maximumResponseSize = 1 << 20
        }
        let progress = ProgressRecorder()
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/bomb"), progress: progress.handler)))
        #expect(error.message.contains("passed the limit of \(1 << 20) bytes"))
        #expect(progress.progress.allSatisfy { $0.received <= 1 << 20 })
    }

    @Test func theTotalDeadlineEndsADownloadThatKeepsTheConnectionAlive() async throws {
        defer { server.stop() }
        // Headers and 10 bytes, then nothing: the idle timeout (15 s) would not fire in time.
        server.route("/drip", .stalled(sendHeaders: true, sentBytes: 10, declaredLength: 1000))
        let (downloader, _) = Fixtures.downloader { $0.totalTimeout = 0.3 }
        let url = server.url(for: "/drip")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
        #expect(Fixtures.urlError(in: error)?.code == .timedOut)
        #expect(error.message.contains("total deadline of 0.3 s"))
        await server.waitForClientDisconnects(on: "/drip")
    }

    @Test func upperCaseSchemesAreDownloaded() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let url = try #require(URL(string: server.url(for: "/image").absoluteString.replacingOccurrences(of: "http://", with: "HTTP://")))
        #expect(downloader.canRequestImage(for: url))
        #expect(try await downloader.requestImage(with: url).data == image)
    }

    @Test func percentEncodingPassesThroughUnchanged() async throws {
        defer { server.stop() }
        server.route("/a%20b/%C3%A9.wiraw", .data(image, contentType: Fixtures.wirawType))
        let (downloader, _) = Fixtures.downloader()
        #expect(try await downloader.requestImage(with: server.url(for: "/a%20b/%C3%A9.wiraw")).data == image)
        #expect(server.requests.first?.path == "/a%20b/%C3%A9.wiraw")
    }

    @Test func perHostConnectionLimitHoldsDownloadsBack() async throws {
        defer { server.stop() }
        let gate = AsyncGate()
        server.route("/held", .delayedHeaders(until: gate, then: .data(image, contentType: Fixtures.wirawType)))
        let (downloader, _) = Fixtures.downloader {
            $0.maxConcurrentDownloads = 4
            $0.maximumConnectionsPerHost = 1
        }
        let tasks = (0..<3).map { Fixtures.request(downloader, server.url(for: "/held?\($0)")) }
        await server.waitForRequests(to: "/held", count: 1)
        #expect(downloader.runningDownloadCount == 3)
        #expect(server.statistics(for: "/held").maxActiveCount == 1)
        gate.open()
        for task in tasks { #expect(try await task.value.data == image) }
        #expect(server.statistics(for: "/held").maxActiveCount == 1)
    }

    @Test func theAddressGuardRefusesAPublicNameThatResolvesToLoopback() async throws {
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        let url = try #require(URL(string: "http://images.example.com:\(port)/image"))
        let resolve = ["images.example.com:\(port):127.0.0.1"]
        // The override works: without the guard the name reaches the loopback server.
        let (open, _) = Fixtures.downloader { $0.resolveOverrides = resolve }
        #expect(try await open.requestImage(with: url).data == image)
        let (guarded, _) = Fixtures.downloader {
            $0.resolveOverrides = resolve
            $0.refusesNonPublicAddresses = true
        }
        let error = try #require(await Fixtures.error(of: Fixtures.request(guarded, url)))
        #expect(error.code == .invalidDownloadResponse)
        #expect(error.message.contains("127.0.0.1, a loopback (127.0.0.0/8) address"))
        #expect(guarded.shouldBlockFailedURL(url, error: error))
        #expect(server.totalRequestCount == 1)
    }

    /// `gzip -c -9` of `data` (through a temporary file: no pipe to fill both ways).
    static func gzip(_ data: Data) async throws -> Data {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("body")
        try data.writeWithoutSync(to: input)
        return try await ChildProcess.output(of: "gzip", ["-c", "-9", input.path])
    }
}
