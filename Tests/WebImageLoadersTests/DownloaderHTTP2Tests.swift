import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// HTTP/2 over TLS (ALPN) against `nghttpd` on loopback (``LocalHTTP2Server``): the download
/// negotiates HTTP/2, and concurrent downloads share one connection.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds, .enabled(if: LocalHTTP2Server.isAvailable, "needs nghttpd and openssl (apt-get install nghttp2-server openssl)"))
struct DownloaderHTTP2Tests {
    let images = (0..<4).map { Fixtures.wiraw(width: 16 + $0, height: 12, seed: UInt8(40 + $0)) }
    let server: LocalHTTP2Server

    init() async throws {
        var files: [String: Data] = [:]
        for (index, image) in images.enumerated() { files["image\(index).wiraw"] = image }
        server = try await LocalHTTP2Server(files: files)
    }

    /// The metrics events of `events`, by URL.
    private func metrics(_ events: EventRecorder) -> [URL: DownloadMetrics] {
        var result: [URL: DownloadMetrics] = [:]
        for case .collectedMetrics(let url, let metrics) in events.events { result[url] = metrics }
        return result
    }

    @Test func aDownloadNegotiatesHTTP2() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader { $0.caCertificateFile = server.certificate.path }
        let url = server.url("/image0.wiraw")
        #expect(try await downloader.requestImage(with: url).data == images[0])
        await events.wait(for: .stopped, url: url)
        let metrics = try #require(metrics(events)[url])
        #expect(metrics.httpVersion == "HTTP/2")
        #expect(metrics.newConnectionCount == 1)
        // The response the events carry is the HTTP/2 one (libcurl's status line "HTTP/2 200").
        let response = events.events.compactMap { event -> HTTPURLResponse? in
            if case .receivedResponse(_, let response) = event { return response as? HTTPURLResponse }
            return nil
        }.first
        #expect(response?.statusCode == 200)
    }

    @Test func concurrentDownloadsShareOneConnection() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader {
            $0.caCertificateFile = server.certificate.path
            $0.maxConcurrentDownloads = 4
        }
        let urls = images.indices.map { server.url("/image\($0).wiraw") }
        let tasks = urls.map { Fixtures.request(downloader, $0) }
        for (task, image) in zip(tasks, images) { #expect(try await task.value.data == image) }
        for url in urls { await events.wait(for: .stopped, url: url) }
        let metrics = metrics(events)
        #expect(metrics.count == 4)
        #expect(metrics.values.allSatisfy { $0.httpVersion == "HTTP/2" })
        // One connection in all: the first download opened it, the others multiplexed on it
        // (they wait for it rather than open their own: CURLOPT_PIPEWAIT).
        #expect(metrics.values.map(\.newConnectionCount).reduce(0, +) == 1)
        // A later download reuses it too.
        let later = server.url("/image1.wiraw?later")
        #expect(try await downloader.requestImage(with: later).data == images[1])
        await events.wait(for: .stopped, url: later)
        #expect(self.metrics(events)[later]?.reusedConnection == true)
    }

    @Test func withoutHTTP2TheDownloadDoesNotOfferIt() async throws {
        defer { server.stop() }
        // nghttpd speaks only HTTP/2: a client that offers HTTP/1.1 alone gets no response.
        let (downloader, events) = Fixtures.downloader {
            $0.caCertificateFile = server.certificate.path
            $0.usesHTTP2 = false
        }
        let url = server.url("/image0.wiraw")
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, url)))
        #expect(error.code == .invalidDownloadResponse)
        await events.wait(for: .stopped, url: url)
        #expect(metrics(events)[url]?.httpVersion != "HTTP/2")
    }
}
