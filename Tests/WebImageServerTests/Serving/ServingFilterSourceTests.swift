import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebImageLoopbackServer
@testable import WebImageServer

/// The images of `watermark(...)` and `frame(...)` are sources like any other: the same rules
/// (allow-list, guard, file root), limits, caches, coalescing, deadline and cancellation.
@Suite struct ServingFilterSourceTests {
    /// An opaque red 8x6 PNG: the watermark of these tests.
    static let mark: Data = {
        let bitmap = Pixels.make(width: 8, height: 6, hasAlpha: false) { _, _ in RGBAColor(red: 255, green: 0, blue: 0) }
        return try! PNGCoder().encode(WebImage(bitmap: bitmap), as: .png)
    }()

    /// A fixture whose origin serves ``mark`` at `/mark.png` (and `routes`).
    static func fixture(routes: [String: LoopbackHTTPServer.Route] = [:], resultCache: (any ImageCache)? = nil, _ configure: (inout ImageServerConfiguration) -> Void = { _ in }) throws -> ServingFixture {
        try ServingFixture(resultCache: resultCache, routes: ["/mark.png": .data(mark, contentType: "image/png")].merging(routes) { $1 }, configure)
    }

    /// `source` (the file root's 64x48 JPEG unless given) with a watermark from `mark` at the
    /// top left, as PNG.
    static func watermarked(_ mark: String, alpha: Int = 0, source: String = "photos/a.jpg", name: String = "w") -> ThumborRequest {
        ThumborRequest(signedPart: name + mark + "\(alpha)" + source, filters: [.watermark(ThumborWatermark(source: mark, x: .offset(0), y: .offset(0), alpha: alpha)), .format(.png)], source: source)
    }

    @Test func aWatermarkOverHTTPIsDrawn() async throws {
        let fixture = try Self.fixture()
        let response = await fixture.get(Self.watermarked(fixture.originSource("/mark.png")))
        #expect(response.status == 200, "\(response.text)")
        let image = try ServingFixture.decode(response)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.bitmap[3, 2] == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(image.bitmap[8, 6] != RGBAColor(red: 255, green: 0, blue: 0))
        #expect(fixture.origin.statistics(for: "/mark.png").requestCount == 1)
    }

    @Test func aFrameIsLoadedLikeASourceAndDrawn() async throws {
        let fixture = try ThumborReference.makeFixture()
        let response = await fixture.get(path: "/unsafe/filters:frame(ninepatch.png)/photo.png")
        #expect(response.status == 200, "\(response.text)")
        let image = try ServingFixture.decode(response)
        // ninepatch.png's content area pads 3, 2, 4 and 3 pixels (left, top, right, bottom).
        #expect(image.pixelSize == PixelSize(width: 80 + 7, height: 60 + 5))
        // Its opaque ring at the corner; the photo where its middle is transparent.
        #expect(image.bitmap[0, 0] == RGBAColor(red: 200, green: 29, blue: 48))
        let photo = try ServingFixture.coders.decode(Data(contentsOf: ThumborReference.sources.appendingPathComponent("photo.png")), options: ImageDecodeOptions())
        #expect(image.bitmap[3 + 40, 2 + 30] == photo.bitmap[40, 30])
        #expect(image.bitmap[3 + 10, 2 + 50] == photo.bitmap[10, 50])
    }

    @Test func aWatermarkURLMayBePercentEncodedOrPlain() async throws {
        let fixture = try Self.fixture()
        let plain = fixture.originSource("/mark.png")
        let encoded = plain.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(encoded.contains("%3A%2F%2F"))
        let first = await fixture.get(path: "/unsafe/filters:watermark(\(encoded),0,0,0):format(png)/photos/a.jpg")
        let second = await fixture.get(path: "/unsafe/filters:watermark(\(plain),0,0,0):format(png)/photos/a.jpg")
        #expect(first.status == 200, "\(first.text)")
        #expect(second.status == 200, "\(second.text)")
        #expect(first.body == second.body)
        // One original for both spellings.
        #expect(fixture.origin.statistics(for: "/mark.png").requestCount == 1)
    }

    @Test func theWatermarkSharesTheSourcesCache() async throws {
        let fixture = try Self.fixture()
        let mark = fixture.originSource("/mark.png")
        #expect(await fixture.get(ThumborRequest(signedPart: "as-source", source: mark)).status == 200)
        #expect(await fixture.get(Self.watermarked(mark)).status == 200)
        #expect(await fixture.get(Self.watermarked(mark, alpha: 30)).status == 200)
        #expect(fixture.origin.statistics(for: "/mark.png").requestCount == 1)
        // One fetch of the mark, one read of the file source.
        #expect(fixture.server.metrics.originFetchCount == 2)
    }

    @Test func concurrentRequestsShareOneWatermarkFetch() async throws {
        let gate = AsyncGate()
        let fixture = try Self.fixture(routes: ["/slow.png": .delayedHeaders(until: gate, then: .data(Self.mark, contentType: "image/png"))])
        let mark = fixture.originSource("/slow.png")
        let count = 4
        let joined = Locked(0)
        let allJoined = AsyncGate()
        let observation = fixture.manager.addEventObserver { event in
            if case .joined = event.kind, event.url.path == "/slow.png" {
                if joined.withLock({ $0 += 1; return $0 }) == count - 1 { allJoined.open() }
            }
        }
        defer { observation.cancel() }
        let statuses = await withTaskGroup(of: Int.self) { group in
            for alpha in 0..<count {
                // Distinct results (different alphas), one watermark.
                group.addTask { await fixture.get(Self.watermarked(mark, alpha: alpha * 10)).status }
            }
            await allJoined.wait()
            gate.open()
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: count))
        #expect(fixture.origin.statistics(for: "/slow.png").requestCount == 1)
    }

    @Test func aWatermarkOffTheAllowListIsRefusedAsASourceIs() async throws {
        let fixture = try Self.fixture { $0.allowedSourceHosts = ["images.example.com"] }
        let mark = fixture.originSource("/mark.png")
        let asSource = await fixture.get(ThumborRequest(signedPart: "source", source: mark))
        let asWatermark = await fixture.get(Self.watermarked(mark))
        let asFrame = await fixture.get(ThumborRequest(signedPart: "frame", filters: [.frame(mark)], source: "photos/a.jpg"))
        #expect(asSource.status == 403)
        #expect(asWatermark.status == 403)
        #expect(asFrame.status == 403)
        #expect(asWatermark.text == asSource.text)
        #expect(asWatermark.text.contains("is not on the allow-list"))
        #expect(fixture.origin.statistics(for: "/mark.png").requestCount == 0)
    }

    @Test func aPrivateWatermarkIsRefusedWithTheGuardOn() async throws {
        let fixture = try Self.fixture { $0.allowsPrivateSources = false }
        let response = await fixture.get(Self.watermarked(fixture.originSource("/mark.png")))
        #expect(response.status == 403)
        #expect(response.text.contains("non-public"))
        #expect(fixture.origin.statistics(for: "/mark.png").requestCount == 0)
    }

    @Test func aResultMadeUnderLooserRulesIsNotServedUnderTighterOnes() async throws {
        let results = MemoryCache()
        let loose = try Self.fixture(resultCache: results)
        let request = Self.watermarked(loose.originSource("/mark.png"))
        #expect(await loose.get(request).status == 200)
        let strict = try Self.fixture(resultCache: results) { $0.allowedSourceHosts = ["images.example.com"] }
        // The same URL (the same origin's port): refused before the result cache is asked.
        let refused = await strict.get(request)
        #expect(refused.status == 403, "\(refused.text)")
    }

    @Test func differentWatermarksAreDifferentResults() async throws {
        let fixture = try Self.fixture(routes: ["/other.png": .data(ServingFixture.png(), contentType: "image/png")], resultCache: MemoryCache())
        let first = await fixture.get(Self.watermarked(fixture.originSource("/mark.png")))
        let second = await fixture.get(Self.watermarked(fixture.originSource("/other.png")))
        #expect(first.status == 200)
        #expect(second.status == 200)
        #expect(first.body != second.body)
        // The first again: its own result, from the server's memory, no fetch.
        let again = await fixture.get(Self.watermarked(fixture.originSource("/mark.png")))
        #expect(again.body == first.body)
        #expect(fixture.entries.last?.cacheTier == .resultMemory)
        #expect(fixture.origin.statistics(for: "/mark.png").requestCount == 1)
    }

    @Test(arguments: [
        // The origin's failures: thumbor answers 400 ("bad watermark result").
        ("/missing.png", 400),
        ("/error.png", 400),
        // Data that is no image: thumbor answers 500.
        ("/text.png", 500),
    ])
    func watermarkOriginFailures(path: String, status: Int) async throws {
        let fixture = try Self.fixture(routes: [
            "/missing.png": .status(404),
            "/error.png": .status(500),
            "/text.png": .data(Data("not an image".utf8), contentType: "image/png"),
        ])
        let response = await fixture.get(Self.watermarked(fixture.originSource(path)))
        #expect(response.status == status, "\(response.text)")
        #expect(response.text.contains(fixture.originSource(path)))
    }

    @Test(arguments: [
        ("missing.png", 400),
        ("../outside.png", 403),
        // A leading `/` is dropped under a root, as thumbor's file loader does: `etc/passwd`
        // under the root, which is not there (never the system's file).
        ("/etc/passwd", 400),
        ("ftp://a.example/m.png", 400),
    ])
    func watermarkSourcesFollowTheSourceRules(source: String, status: Int) async throws {
        let fixture = try Self.fixture()
        let response = await fixture.get(Self.watermarked(source))
        #expect(response.status == status, "\(response.text)")
    }

    @Test func aWatermarkOverTheByteLimitIs413() async throws {
        let fixture = try Self.fixture(routes: ["/big.png": .huge(byteCount: 4096)]) { $0.maximumSourceBytes = 2048 }
        #expect(await fixture.get(Self.watermarked(fixture.originSource("/big.png"))).status == 413)
    }

    @Test func theSourcesFailureWinsAndStopsTheWatermarksLoad() async throws {
        let watermarkGate = AsyncGate(), sourceGate = AsyncGate()
        let fixture = try Self.fixture(routes: [
            "/never.png": .delayedHeaders(until: watermarkGate, then: .data(Self.mark, contentType: "image/png")),
            "/gone.jpg": .delayedHeaders(until: sourceGate, then: .status(404)),
        ])
        defer { watermarkGate.open() }
        let request = Self.watermarked(fixture.originSource("/never.png"), source: fixture.originSource("/gone.jpg"))
        async let response = fixture.get(request)
        // Both loads have begun; the source then fails.
        await fixture.origin.waitForRequests(to: "/never.png")
        await fixture.origin.waitForRequests(to: "/gone.jpg")
        sourceGate.open()
        let answer = await response
        #expect(answer.status == 404, "\(answer.text)")
        // The watermark's fetch was cancelled: the origin sees its client go.
        await fixture.origin.waitForClientDisconnects(on: "/never.png", count: 1)
        #expect(fixture.origin.statistics(for: "/never.png").completedCount == 0)
    }

    @Test(.timeLimit(.minutes(1)), .whenThePoolResponds)
    func theWatermarkCountsAgainstTheDeadline() async throws {
        let gate = AsyncGate()
        let fixture = try Self.fixture(routes: ["/never.png": .delayedHeaders(until: gate, then: .data(Self.mark, contentType: "image/png"))]) {
            $0.requestTimeout = .milliseconds(300)
            $0.downloaderConfiguration.downloadTimeout = 3600
        }
        defer { gate.open() }
        let response = await fixture.get(Self.watermarked(fixture.originSource("/never.png")))
        #expect(response.status == 504)
        if fixture.origin.statistics(for: "/never.png").requestCount > 0 {
            await fixture.origin.waitForClientDisconnects(on: "/never.png", count: 1)
        }
        #expect(fixture.origin.statistics(for: "/never.png").completedCount == 0)
    }

    @Test func theWatermarksDecodeIsReleasedWithTheRender() async throws {
        let budget = MemoryBudget(limit: 1 << 24, fixedBytes: 0, maximumWait: .seconds(600))
        let fixture = try Self.fixture { $0.memoryBudget = budget }
        #expect(await fixture.get(Self.watermarked(fixture.originSource("/mark.png"))).status == 200)
        #expect(budget.usage.reservedBytes == 0)
        #expect(budget.usage.reservations == 0)
        #expect(budget.usage.peakReservedBytes >= 64 * 48 * 4 + 8 * 6 * 4)
        // And when the watermark fails, the source's hold ends too (a source not decoded yet).
        try ServingFixture.jpeg().writeWithoutSync(to: fixture.root.appendingPathComponent("c.jpg"))
        let failed = await fixture.get(Self.watermarked(fixture.originSource("/nothing-here.png"), source: "c.jpg"))
        #expect(failed.status == 400)
        #expect(budget.usage.reservedBytes == 0)
    }
}
