import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageLoaders

/// Progress events and progressive (partial) images.
@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)
struct DownloaderProgressTests {
    let server: LoopbackHTTPServer
    let gate = AsyncGate()
    /// 64 x 64 pixels: 16 KiB of rows after the 28-byte header.
    let image = Fixtures.wiraw(width: 64, height: 64)

    init() throws {
        server = try LoopbackHTTPServer()
    }

    @Test func progressRisesToTheTotal() async throws {
        defer { server.stop() }
        server.route("/slow", .slowBody(image, firstPart: 1000, gate: gate, contentType: Fixtures.wirawType))
        let (downloader, _) = Fixtures.downloader()
        let progress = ProgressRecorder()
        let task = Fixtures.request(downloader, server.url(for: "/slow"), progress: progress.handler)
        await gate.waitForArrivals(1)
        gate.open()
        _ = try await task.value
        let events = progress.progress
        #expect(events.first?.received == 0)
        #expect(events.last?.received == Int64(image.count))
        #expect(events.allSatisfy { $0.expected == Int64(image.count) })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.received <= $1.received })
        #expect(progress.partialImages.isEmpty)
    }

    @Test func minimumProgressIntervalThrottlesButKeepsTheLastEvent() async throws {
        defer { server.stop() }
        server.route("/chunked", .chunked(image, chunkSize: 512, contentType: Fixtures.wirawType))
        server.route("/length", .data(image, contentType: Fixtures.wirawType))
        let (downloader, _) = Fixtures.downloader { $0.minimumProgressInterval = 0.5 }
        // Unknown length: every chunk is reported.
        let unknown = ProgressRecorder()
        _ = try await downloader.requestImage(with: server.url(for: "/chunked"), options: [], context: WebImageContext(), progress: unknown.handler)
        #expect(unknown.progress.allSatisfy { $0.expected == nil })
        #expect(unknown.progress.last?.received == Int64(image.count))
        // Known length: at most the first, one per half, and the last.
        let known = ProgressRecorder()
        _ = try await downloader.requestImage(with: server.url(for: "/length"), options: [], context: WebImageContext(), progress: known.handler)
        #expect(known.progress.count <= 4)
        #expect(known.progress.last?.received == Int64(image.count))
        let fractions = known.progress.map { Double($0.received) / Double(image.count) }
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $1 - $0 >= 0.5 || $1 == 1 })
    }

    @Test func progressiveLoadDeliversPartialImagesBeforeTheFinalOne() async throws {
        defer { server.stop() }
        // The header and 20 of the 64 rows, then the rest once a partial image was seen.
        server.route("/progressive", .slowBody(image, firstPart: 28 + 4 + 20 * 64 * 4, gate: gate, contentType: Fixtures.wirawType))
        let (downloader, _) = Fixtures.downloader()
        let progress = ProgressRecorder()
        let task = Fixtures.request(downloader, server.url(for: "/progressive"), options: [.progressiveLoad], progress: progress.handler)
        await progress.waitForPartialImages(1)
        let partial = try #require(progress.partialImages.first)
        #expect(partial.metadata.contains(.incremental))
        #expect(partial.pixelSize == PixelSize(width: 64, height: 64))
        // Rows that have not arrived are transparent.
        #expect(partial.bitmap.bytes[(63 * 64) * 4 + 3] == 0)
        #expect(partial.bitmap.bytes[3] == 255)
        gate.open()
        let final = try #require(try await task.value.image)
        #expect(!final.metadata.contains(.incremental))
        #expect(progress.partialImages.allSatisfy { $0.metadata.contains(.incremental) })
    }

    @Test func partialImagesGoOnlyToRequestersThatAskedForThem() async throws {
        defer { server.stop() }
        server.route("/progressive", .slowBody(image, firstPart: 28 + 4 + 20 * 64 * 4, gate: gate, contentType: Fixtures.wirawType))
        let (downloader, events) = Fixtures.downloader()
        let url = server.url(for: "/progressive")
        let plain = ProgressRecorder()
        let progressive = ProgressRecorder()
        let plainTask = Fixtures.request(downloader, url, progress: plain.handler)
        await events.wait(for: .queued, url: url)
        let progressiveTask = Fixtures.request(downloader, url, options: [.progressiveLoad], progress: progressive.handler)
        await events.wait(for: .requesterJoined, url: url)
        await progressive.waitForPartialImages(1)
        gate.open()
        _ = try await plainTask.value
        _ = try await progressiveTask.value
        #expect(plain.partialImages.isEmpty)
        #expect(!plain.progress.isEmpty)
        #expect(!progressive.partialImages.isEmpty)
    }

    @Test func aCoderThatIsNotProgressiveGivesNoPartialImages() async throws {
        defer { server.stop() }
        server.route("/image", .data(image, contentType: Fixtures.wirawType))
        let mock = MockImageCoder(name: "plain", magic: Array("WIRAW".utf8), format: .rawBitmap)
        let (downloader, _) = Fixtures.downloader(coder: mock)
        let progress = ProgressRecorder()
        let result = try await downloader.requestImage(with: server.url(for: "/image"), options: [.progressiveLoad], context: WebImageContext(), progress: progress.handler)
        #expect(result.image != nil)
        #expect(progress.partialImages.isEmpty)
    }
}
