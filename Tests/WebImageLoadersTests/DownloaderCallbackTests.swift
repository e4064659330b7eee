import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// The downloader's completion-handler API: a request is registered when the call returns, so
/// `cancelAllDownloads()` and `currentDownloadCount` see it at once.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderCallbackTests {
    let server: LoopbackHTTPServer
    let gate = AsyncGate()

    init() throws {
        server = try LoopbackHTTPServer()
        server.route("/held", .delayedHeaders(until: gate, then: .data(Fixtures.wiraw(), contentType: Fixtures.wirawType)))
        server.route("/image", .data(Fixtures.wiraw(), contentType: Fixtures.wirawType))
    }

    /// Twenty requests made one after the other, then `cancelAllDownloads()`: each request
    /// counts as soon as its call returns, and every one ends cancelled, even those that had
    /// not gone further than the call (the held responses are released afterwards: a request
    /// that escaped the cancellation would succeed).
    @Test func cancelAllCancelsEveryRequestWhoseCallReturned() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let completions = CompletionRecorder()
        var counts: [Int] = []
        for index in 0..<20 {
            downloader.requestImage(with: server.url(for: "/held?n=\(index)"), completion: completions.handler("\(index)"))
            counts.append(downloader.currentDownloadCount)
        }
        downloader.cancelAllDownloads()
        #expect(downloader.currentDownloadCount == 0)
        gate.open()
        await completions.wait(count: 20)
        #expect(counts == Array(1...20), "currentDownloadCount after each call")
        let codes = completions.results.map { result -> WebImageError.Code? in
            guard case .failure(let error) = result else { return nil }
            return (error as? WebImageError)?.code
        }
        #expect(codes == Array(repeating: .cancelled, count: 20), "every request ends cancelled: \(codes)")
    }

    /// The same right after each call, twenty times over: none escapes.
    @Test func cancelAllRightAfterTheCallCancelsIt() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let completions = CompletionRecorder()
        for index in 0..<20 {
            downloader.requestImage(with: server.url(for: "/image?n=\(index)"), completion: completions.handler("\(index)"))
            downloader.cancelAllDownloads()
        }
        await completions.wait(count: 20)
        let escaped = completions.results.filter { result in
            guard case .failure(let error) = result else { return true }
            return (error as? WebImageError)?.code != .cancelled
        }
        #expect(escaped.isEmpty, "\(escaped.count) of 20 requests escaped cancelAllDownloads()")
    }

    @Test func cancellingTheOperationEndsOnlyThatRequestAtOnce() async throws {
        defer { server.stop() }
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/held")
        let completions = CompletionRecorder()
        let first = downloader.requestImage(with: url, completion: completions.handler("first"))
        downloader.requestImage(with: url, completion: completions.handler("second"))
        await events.wait(for: .requesterJoined, url: url)
        first.cancel()
        // Delivered by the cancel itself, before the held response is released.
        #expect(completions.labels == ["first"])
        let error = try #require(completions.results.first.flatMap { result -> WebImageError? in
            if case .failure(let error) = result { error as? WebImageError } else { nil }
        })
        #expect(error.code == .cancelled)
        gate.open()
        await completions.wait(count: 2)
        #expect(completions.labels == ["first", "second"])
        let image = try completions.results[1].get().image
        #expect(image?.pixelSize == PixelSize(width: 16, height: 12))
        #expect(server.statistics(for: "/held").requestCount == 1)
    }

    @Test func completionAndProgressRunOnTheContextsCallbackQueue() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let queue = DispatchQueue(label: "callback-queue-test")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        var context = WebImageContext()
        context.callbackQueue = .queue(queue)
        let onQueue = CallRecorder<Bool>()
        let result: Result<ImageLoaderResult, any Error> = await withCheckedContinuation { continuation in
            downloader.requestImage(with: server.url(for: "/image"), context: context, progress: { _ in
                onQueue.record(DispatchQueue.getSpecific(key: key) == true)
            }) { result in
                onQueue.record(DispatchQueue.getSpecific(key: key) == true)
                continuation.resume(returning: result)
            }
        }
        #expect(try result.get().image?.pixelSize == PixelSize(width: 16, height: 12))
        #expect(onQueue.count >= 2, "progress and completion")
        #expect(onQueue.all.allSatisfy { $0 })
    }

    @Test func refusedRequestsCompleteWithTheirError() async throws {
        defer { server.stop() }
        let (downloader, _) = Fixtures.downloader()
        let url = try #require(URL(string: "ftp://127.0.0.1/a.wiraw"))
        let completions = CompletionRecorder()
        downloader.requestImage(with: url, completion: completions.handler("ftp"))
        await completions.wait(count: 1)
        guard case .failure(let error) = try #require(completions.results.first) else {
            Issue.record("an ftp URL succeeded")
            return
        }
        #expect((error as? WebImageError)?.code == .unsupportedURL)
        #expect(downloader.currentDownloadCount == 0)
    }
}
