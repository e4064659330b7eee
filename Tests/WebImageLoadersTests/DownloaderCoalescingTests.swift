import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// One transfer per URL; each requester's task is its token.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderCoalescingTests {
    let server: LoopbackHTTPServer
    let image = Fixtures.wiraw()
    let gate = AsyncGate()

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("/held.wiraw", .delayedHeaders(until: gate, then: .data(image, contentType: Fixtures.wirawType)))
    }

    @Test func fiftyConcurrentRequestsForOneURLHitTheServerOnce() async throws {
        defer { server.stop() }
        let mock = MockImageCoder(name: "shared", magic: Array("WIRAW".utf8), format: .rawBitmap)
        let (downloader, events) = Fixtures.downloader(coder: mock)
        let url = server.url(for: "/held.wiraw")
        let tasks = (0..<50).map { _ in Fixtures.request(downloader, url) }
        await gate.waitForArrivals(1)
        await events.wait(for: .requesterJoined, count: 49, url: url)
        #expect(downloader.currentDownloadCount == 1)
        gate.open()
        for task in tasks {
            let result = try await task.value
            #expect(result.image?.pixelSize == PixelSize(width: 16, height: 12))
        }
        #expect(server.statistics(for: "/held.wiraw").requestCount == 1)
        // Equal decode settings share one decode.
        #expect(mock.decodeCount == 1)
        #expect(downloader.currentDownloadCount == 0)
    }

    @Test func requestersWithEventSinksStillShareOneDecode() async throws {
        defer { server.stop() }
        let mock = MockImageCoder(name: "shared", magic: Array("WIRAW".utf8), format: .rawBitmap)
        let (downloader, events) = Fixtures.downloader(coder: mock)
        let url = server.url(for: "/held.wiraw")
        // The manager gives every observed request a sink of its own: it must not split decodes.
        func observed(_ id: UInt64) -> WebImageContext {
            WebImageContext { $0.imageEventSink = ImageEventSink(requestID: id, url: url, cacheKey: url.absoluteString) { _ in } }
        }
        let first = Fixtures.request(downloader, url, context: observed(1))
        let second = Fixtures.request(downloader, url, context: observed(2))
        await events.wait(for: .requesterJoined, url: url)
        gate.open()
        _ = try await first.value
        _ = try await second.value
        #expect(mock.decodeCount == 1)
    }

    @Test func requestersWithDifferentDecodeSettingsDecodeSeparately() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/held.wiraw")
        let full = Fixtures.request(downloader, url)
        await events.wait(for: .queued, url: url)
        let small = Fixtures.request(downloader, url, context: WebImageContext { $0.imageThumbnailPixelSize = PixelSize(width: 4, height: 4) })
        let bytesOnly = Fixtures.request(downloader, url, options: [.avoidDecodeImage])
        await events.wait(for: .requesterJoined, count: 2, url: url)
        gate.open()
        #expect(try await full.value.image?.pixelSize == PixelSize(width: 16, height: 12))
        #expect(try await small.value.image?.pixelSize == PixelSize(width: 4, height: 3))
        let data = try await bytesOnly.value
        #expect(data.image == nil)
        #expect(data.data == image)
        #expect(server.statistics(for: "/held.wiraw").requestCount == 1)
    }

    @Test func cancellingOneOfTwoRequestersStillDeliversToTheOther() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/held.wiraw")
        let first = Fixtures.request(downloader, url)
        let second = Fixtures.request(downloader, url)
        await events.wait(for: .requesterJoined, url: url)
        await gate.waitForArrivals(1)
        first.cancel()
        await events.wait(for: .requesterLeft, url: url)
        let error = await Fixtures.error(of: first)
        #expect(error?.code == .cancelled)
        #expect(error?.message == "Operation cancelled by user during loading")
        gate.open()
        let result = try await second.value
        #expect(result.image?.pixelSize == PixelSize(width: 16, height: 12))
        #expect(server.statistics(for: "/held.wiraw").requestCount == 1)
        #expect(server.statistics(for: "/held.wiraw").clientDisconnectCount == 0)
    }

    @Test func cancellingEveryRequesterClosesTheConnection() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/held.wiraw")
        let first = Fixtures.request(downloader, url)
        let second = Fixtures.request(downloader, url)
        await events.wait(for: .requesterJoined, url: url)
        await gate.waitForArrivals(1)
        first.cancel()
        second.cancel()
        #expect(await Fixtures.error(of: first)?.code == .cancelled)
        #expect(await Fixtures.error(of: second)?.code == .cancelled)
        // The server sees the client go away while it holds the response.
        await server.waitForClientDisconnects(on: "/held.wiraw")
        await events.wait(for: .stopped, url: url)
        #expect(downloader.currentDownloadCount == 0)
        #expect(downloader.runningDownloadCount == 0)
        #expect(!events.kinds(for: url).contains(.finished))
    }

    @Test func aRequestAfterAbandonmentStartsAFreshDownload() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/held.wiraw")
        let abandoned = Fixtures.request(downloader, url)
        await gate.waitForArrivals(1)
        abandoned.cancel()
        #expect(await Fixtures.error(of: abandoned)?.code == .cancelled)
        gate.open()
        let result = try await downloader.requestImage(with: url)
        #expect(result.image != nil)
        await events.wait(for: .started, count: 2, url: url)
        #expect(server.statistics(for: "/held.wiraw").requestCount == 2)
    }

    @Test func cancelledBeforeTheCallIsCancelledBeforeSending() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let url = server.url(for: "/held.wiraw")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await downloader.requestImage(with: url)
        }
        let error = await Fixtures.error(of: task)
        #expect(error?.code == .cancelled)
        #expect(error?.message == "Operation cancelled by user before sending the request")
        #expect(server.totalRequestCount == 0)
    }

    @Test func cancelledWhileQueuedIsCancelledBeforeSending() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        downloader.isSuspended = true
        let url = server.url(for: "/held.wiraw")
        let task = Fixtures.request(downloader, url)
        await events.wait(for: .queued, url: url)
        task.cancel()
        let error = await Fixtures.error(of: task)
        #expect(error?.message == "Operation cancelled by user before sending the request")
        #expect(downloader.currentDownloadCount == 0)
        downloader.isSuspended = false
        gate.open()
        // Nothing was sent: a later download is the server's first request.
        _ = try await downloader.requestImage(with: url)
        #expect(server.statistics(for: "/held.wiraw").requestCount == 1)
        #expect(events.kinds(for: url).filter { $0 == .started }.count == 1)
    }

    @Test func cancelAllDownloadsEndsEveryRequester() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        let one = server.url(for: "/held.wiraw?one")
        let two = server.url(for: "/held.wiraw?two")
        let tasks = [Fixtures.request(downloader, one), Fixtures.request(downloader, one), Fixtures.request(downloader, two)]
        await gate.waitForArrivals(2)
        await events.wait(for: .requesterJoined, url: one)
        downloader.cancelAllDownloads()
        for task in tasks {
            #expect(await Fixtures.error(of: task)?.code == .cancelled)
        }
        await server.waitForClientDisconnects(on: "/held.wiraw", count: 2)
        #expect(downloader.currentDownloadCount == 0)
    }
}
