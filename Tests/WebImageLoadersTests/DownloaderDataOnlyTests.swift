import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Downloads that end on the event loop without a task (async callers with `avoidDecodeImage`):
/// the same results, each slot freed for the next download, the body buffer handed over.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderDataOnlyTests {
    let server: LoopbackHTTPServer

    init() throws {
        server = try LoopbackHTTPServer()
    }

    @Test func dataOnlyDownloadsFreeTheirSlotInOrder() async throws {
        defer { server.stop() }
        // 256 KiB bodies: large enough for the pooled buffers.
        let bodies = (0..<4).map { index in Data((0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* (index + 3)) }) }
        for (index, body) in bodies.enumerated() { server.route("/blob\(index)", .data(body)) }
        let (downloader, _) = Fixtures.downloader { $0.maxConcurrentDownloads = 1 }
        let tasks = bodies.indices.map { Fixtures.request(downloader, server.url(for: "/blob\($0)"), options: [.avoidDecodeImage]) }
        for (task, body) in zip(tasks, bodies) {
            let result = try await task.value
            #expect(result.image == nil)
            #expect(result.data == body)
            #expect(result.statusCode == 200)
            #expect(result.contentType == "application/octet-stream")
        }
        // With one slot, each download started only once the one before had freed it (the
        // tasks may start in any order).
        #expect(Set(server.requests.map(\.path)) == ["/blob0", "/blob1", "/blob2", "/blob3"])
        #expect(server.totalRequestCount == 4)
    }

    @Test func anEmptyDataOnlyBodyIsStillBadImageData() async throws {
        defer { server.stop() }
        server.route("/empty", .data(Data()))
        let (downloader, _) = Fixtures.downloader()
        let error = try #require(await Fixtures.error(of: Fixtures.request(downloader, server.url(for: "/empty"), options: [.avoidDecodeImage])))
        #expect(error.code == .badImageData)
        #expect(error.message.contains("returned an empty body"))
    }

    @Test func aDataOnlyRequesterAndADecodingOneShareTheDownload() async throws {
        defer { server.stop() }
        let image = Fixtures.wiraw()
        let gate = AsyncGate()
        server.route("/both", .delayedHeaders(until: gate, then: .data(image, contentType: Fixtures.wirawType)))
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/both")
        let bytesOnly = Fixtures.request(downloader, url, options: [.avoidDecodeImage])
        await server.waitForRequests(to: "/both")
        let decoding = Fixtures.request(downloader, url)
        // Joined before the response: one download, which must decode for the second.
        await events.wait(for: .requesterJoined, url: url)
        gate.open()
        #expect(try await bytesOnly.value.image == nil)
        #expect(try await decoding.value.image?.pixelSize == PixelSize(width: 16, height: 12))
        #expect(server.totalRequestCount == 1)
    }
}
