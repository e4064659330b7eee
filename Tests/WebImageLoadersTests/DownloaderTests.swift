import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Basics: download and decode, headers, events, decoding options, URL schemes.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderTests {
    let server: LoopbackHTTPServer
    let image = Fixtures.wiraw(width: 16, height: 12)

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("/image.wiraw", .data(image, contentType: Fixtures.wirawType))
    }

    @Test func downloadsAndDecodes() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let result = try await downloader.requestImage(with: server.url(for: "/image.wiraw"))
        let decoded = try #require(result.image)
        #expect(decoded.pixelSize == PixelSize(width: 16, height: 12))
        #expect(decoded.format == .rawBitmap)
        #expect(result.data == image)
        #expect(result.statusCode == 200)
        #expect(result.contentType == Fixtures.wirawType)
        #expect(server.statistics(for: "/image.wiraw").requestCount == 1)
    }

    @Test func chunkedBodyIsReassembled() async throws {
        defer { server.stop() }
        server.route("/chunked", .chunked(image, chunkSize: 100, contentType: Fixtures.wirawType))
        let (downloader, _) = Fixtures.downloader()
        let result = try await downloader.requestImage(with: server.url(for: "/chunked"))
        #expect(result.data == image)
        #expect(result.image?.pixelSize == PixelSize(width: 16, height: 12))
    }

    @Test func sendsDefaultAndCustomHeaders() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader { $0.httpHeaders["X-Configured"] = "yes" }
        downloader.setValue("42", forHTTPHeaderField: "X-Added")
        downloader.setValue(nil, forHTTPHeaderField: "x-configured")
        _ = try await downloader.requestImage(with: server.url(for: "/image.wiraw"))
        let request = try #require(server.requests.first)
        #expect(request.header("Accept") == "image/*,*/*;q=0.8")
        #expect(request.header("User-Agent") == DownloaderConfiguration.userAgent)
        #expect(request.header("User-Agent")?.hasPrefix("SwiftWebImage (") == true)
        #expect(request.header("X-Added") == "42")
        #expect(request.header("X-Configured") == nil)
        #expect(downloader.value(forHTTPHeaderField: "x-added") == "42")
    }

    @Test func defaultsMirrorSDWebImage() {
        defer { server.stop() }
        let configuration = DownloaderConfiguration()
        #expect(configuration.maxConcurrentDownloads == 6)
        #expect(configuration.downloadTimeout == 15)
        #expect(configuration.executionOrder == .fifo)
        #expect(configuration.minimumProgressInterval == 0)
        #expect(configuration.acceptableStatusCodes == IndexSet(integersIn: 200..<300))
        #expect(configuration.acceptableContentTypes == nil)
        #expect(configuration.httpHeaders["Accept"] == "image/*,*/*;q=0.8")
        #expect(configuration.maximumResponseSize == 100 * 1024 * 1024)
    }

    @Test func eventsOfASuccessfulDownloadComeInOrder() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/image.wiraw")
        _ = try await downloader.requestImage(with: url)
        await events.wait(for: .finished, url: url)
        #expect(events.kinds(for: url) == [.queued, .started, .receivedResponse, .collectedMetrics, .stopped, .finished])
        let metrics = events.events.compactMap { event -> DownloadMetrics? in
            if case .collectedMetrics(_, let metrics) = event { return metrics }
            return nil
        }
        #expect(metrics == [DownloadMetrics(httpVersion: "HTTP/1.1", newConnectionCount: 1, redirectCount: 0)])
        // A second download of the downloader reuses the kept-alive connection.
        let again = server.url(for: "/image.wiraw?again")
        _ = try await downloader.requestImage(with: again)
        await events.wait(for: .stopped, url: again)
        let reused = events.events.compactMap { event -> DownloadMetrics? in
            if case .collectedMetrics(again, let metrics) = event { return metrics }
            return nil
        }
        #expect(reused.map(\.reusedConnection) == [true])
    }

    @Test func eventsOfAFailedDownloadHaveNoFinish() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/missing")
        let error = await Fixtures.error(of: Fixtures.request(downloader, url))
        #expect(error?.code == .invalidDownloadStatusCode)
        await events.wait(for: .stopped, url: url)
        #expect(events.kinds(for: url) == [.queued, .started, .collectedMetrics, .stopped])
    }

    @Test func removedObserverHearsNothing() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let silent = EventRecorder()
        let token = downloader.addObserver { silent.record($0) }
        downloader.removeObserver(token)
        _ = try await downloader.requestImage(with: server.url(for: "/image.wiraw"))
        #expect(silent.events.isEmpty)
    }

    @Test func avoidDecodeImageReturnsDataOnly() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let result = try await downloader.requestImage(with: server.url(for: "/image.wiraw"), options: [.avoidDecodeImage], context: WebImageContext(), progress: nil)
        #expect(result.image == nil)
        #expect(result.data == image)
    }

    @Test func contextScaleFactorThumbnailAndKeyScaleApply() async throws {
        defer { server.stop() }
        server.route("/photo@2x.wiraw", .data(image, contentType: Fixtures.wirawType))
        let (downloader, _) = Fixtures.downloader()
        let fromKey = try await downloader.requestImage(with: server.url(for: "/photo@2x.wiraw"))
        #expect(fromKey.image?.scale == 2)
        let context = WebImageContext {
            $0.imageScaleFactor = 3
            $0.imageThumbnailPixelSize = PixelSize(width: 8, height: 8)
        }
        let thumbnail = try await downloader.requestImage(with: server.url(for: "/image.wiraw"), options: [], context: context, progress: nil)
        #expect(thumbnail.image?.scale == 3)
        #expect(thumbnail.image?.pixelSize == PixelSize(width: 8, height: 6))
        #expect(thumbnail.image?.metadata.contains(.thumbnail) == true)
    }

    @Test func scaleDownLargeImagesHonoursTheContextsLimit() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        // A budget of 48 pixels (192 bytes) for a 16 x 12 image: 8 x 6.
        let context = WebImageContext { $0.imageScaleDownLimitBytes = 192 }
        let small = try await downloader.requestImage(with: server.url(for: "/image.wiraw"), options: [.scaleDownLargeImages], context: context, progress: nil)
        #expect(small.image?.pixelSize == PixelSize(width: 8, height: 6))
        // Without the option the limit is ignored.
        let full = try await downloader.requestImage(with: server.url(for: "/image.wiraw"), options: [], context: context, progress: nil)
        #expect(full.image?.pixelSize == PixelSize(width: 16, height: 12))
    }

    @Test func contextCoderWinsOverTheDownloadersCoder() async throws {
        defer { server.stop() }
        let mock = MockImageCoder(name: "context", magic: Array("WIRAW".utf8), format: .rawBitmap)
        let (downloader, _) = Fixtures.downloader()
        let result = try await downloader.requestImage(with: server.url(for: "/image.wiraw"), options: [], context: WebImageContext { $0.imageCoder = mock }, progress: nil)
        #expect(MockImageCoder.decoderName(of: try #require(result.image)) == "context")
        #expect(mock.decodeCount == 1)
    }

    @Test func undecodableBodyIsBadImageData() async throws {
        defer { server.stop() }
        server.route("/garbage", .data(Data("not an image at all".utf8), contentType: "image/png"))
        let (downloader, _) = Fixtures.downloader()
        let error = await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/garbage")))
        #expect(error?.code == .badImageData)
        #expect(error?.url == server.url(for: "/garbage"))
    }

    @Test func emptyBodyIsBadImageData() async throws {
        defer { server.stop() }
        server.route("/empty", .data(Data(), contentType: Fixtures.wirawType))
        let (downloader, _) = Fixtures.downloader()
        let error = await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/empty")))
        #expect(error?.code == .badImageData)
        #expect(error?.message.contains("empty body") == true)
    }

    @Test(arguments: [
        ("http://example.invalid/a.png", true), ("https://example.invalid/a.png", true), ("HTTP://example.invalid/a", true),
        ("file:///tmp/a.png", false), ("data:,x", false), ("ftp://example.invalid/a.png", false),
    ])
    func claimsHTTPAndHTTPSOnly(url: String, claimed: Bool) throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        #expect(downloader.canRequestImage(for: try #require(URL(string: url))) == claimed)
    }

    @Test func otherSchemesAreRefusedWithoutNetwork() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let url = try #require(URL(string: "ftp://127.0.0.1/a.png"))
        let error = await Fixtures.error(of: Fixtures.request(downloader, url))
        #expect(error?.code == .unsupportedURL)
    }

    @Test func completionHandlerAPIWorksOverTheDownloader() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let url = server.url(for: "/image.wiraw")
        let result: Result<ImageLoaderResult, any Error> = await withCheckedContinuation { continuation in
            downloader.requestImage(with: url) { continuation.resume(returning: $0) }
        }
        #expect(try result.get().image?.pixelSize == PixelSize(width: 16, height: 12))
    }
}
