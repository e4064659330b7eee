import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebImageLoopbackServer
@testable import WebImageServer

@Suite struct ServingLimitTests {
    @Test func aSourceDeclaring30000x30000IsRefusedAndTheServerKeepsServing() async throws {
        let fixture = try ServingFixture(routes: ["/huge.png": .data(ServingFixture.declaredHugePNG(), contentType: "image/png")])
        let huge = await fixture.get(ThumborRequest(source: fixture.originSource("/huge.png")))
        #expect(huge.status == 422)
        #expect(huge.text.contains("limit"))
        let normal = await fixture.get(ThumborRequest(source: fixture.originSource("/a.jpg")))
        #expect(normal.status == 200)
    }

    @Test func framesOverTheLimitAre422() async throws {
        let fixture = try ServingFixture { $0.maximumSourceFrames = 2 }
        let response = await fixture.get(ThumborRequest(source: "anim.gif"))
        #expect(response.status == 422)
    }

    @Test func anOutputSideOverTheLimitIs400() async throws {
        let fixture = try ServingFixture { $0.maximumOutputDimension = 100 }
        #expect(await fixture.get(ThumborRequest(width: 101, height: 10, source: "photos/a.jpg")).status == 400)
        #expect(await fixture.get(ThumborRequest(width: 10, height: 500, source: "photos/a.jpg")).status == 400)
    }

    @Test func theDeadlineGives504() async throws {
        let gate = AsyncGate()
        let fixture = try ServingFixture(routes: ["/stuck.jpg": .delayedHeaders(until: gate, then: .data(ServingFixture.jpeg(), contentType: "image/jpeg"))]) {
            $0.requestTimeout = .milliseconds(300)
        }
        defer { gate.open() }
        let response = await fixture.get(ThumborRequest(source: fixture.originSource("/stuck.jpg")))
        #expect(response.status == 504)
        #expect(fixture.entries.last?.status == 504)
        // The server keeps serving (a request that needs no transform: a debug build under a
        // loaded test run may take longer than this short deadline to transform).
        #expect(await fixture.get(path: "/healthcheck").status == 200)
        #expect(await fixture.get(path: "/metrics").text.contains("webimage_serve_requests_total{status=\"504\"} 1\n"))
    }

    @Test(.timeLimit(.minutes(1)), .whenThePoolResponds)
    func anOriginThatNeverAnswersIsLeftAtTheDeadline() async throws {
        let gate = AsyncGate()
        let fixture = try ServingFixture(routes: ["/never.jpg": .delayedHeaders(until: gate, then: .data(ServingFixture.jpeg(), contentType: "image/jpeg"))]) {
            $0.requestTimeout = .milliseconds(300)
            // No idle timeout to end the fetch: only the request deadline can.
            $0.downloaderConfiguration.downloadTimeout = 3600
        }
        defer { gate.open() }
        let response = await fixture.get(ThumborRequest(source: fixture.originSource("/never.jpg")))
        #expect(response.status == 504)
        // The request's work ends at its deadline: a fetch that reached the origin hangs up on
        // it (without the cap, an hour from now); under load the deadline may pass before the
        // fetch starts, and then none is made at all.
        if fixture.origin.statistics(for: "/never.jpg").requestCount > 0 {
            await fixture.origin.waitForClientDisconnects(on: "/never.jpg", count: 1)
        }
        #expect(fixture.origin.statistics(for: "/never.jpg").completedCount == 0)
    }

    @Test func aFullTransformQueueGives503WithRetryAfter() async throws {
        let fixture = try ServingFixture {
            $0.transformConcurrency = 1
            $0.maximumQueuedTransforms = 1
        }
        let gate = AsyncGate()
        fixture.server.hooks.withLock { $0.beforeTransform = { await gate.wait() } }
        async let first = fixture.get(ThumborRequest(signedPart: "1", source: "photos/a.jpg"))
        async let second = fixture.get(ThumborRequest(signedPart: "2", source: "photos/a.jpg"))
        await gate.waitForArrivals(2)
        let metrics = await fixture.get(path: "/metrics").text
        #expect(metrics.contains("webimage_serve_requests_in_flight 3\n"))
        let refused = await fixture.get(ThumborRequest(signedPart: "3", source: "photos/a.jpg"))
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        gate.open()
        #expect(await first.status == 200)
        #expect(await second.status == 200)
        #expect(fixture.server.admission.admittedCount == 0)
        #expect(await fixture.get(ThumborRequest(signedPart: "4", source: "photos/a.jpg")).status == 200)
    }

    @Test func errorBodiesAreShortPlainText() {
        let long = ServingFailure(400, String(repeating: "x", count: 5000) + "\nsecond line")
        let body = String(decoding: long.body, as: UTF8.self)
        #expect(body.count <= ServingFailure.maximumMessageLength + 4)
        #expect(body.filter { $0 == "\n" }.count == 1)
    }

    @Test func loadErrorsMapToStatuses() {
        #expect(ServingFailure.forLoad(WebImageError(.imageTooLarge, "x"), source: "s").status == 422)
        #expect(ServingFailure.forLoad(WebImageError(.badImageData, "x"), source: "s").status == 422)
        #expect(ServingFailure.forLoad(WebImageError(.invalidDownloadStatusCode, "x", statusCode: 404), source: "s").status == 404)
        #expect(ServingFailure.forLoad(WebImageError(.invalidDownloadStatusCode, "x", statusCode: 503), source: "s").status == 502)
        #expect(ServingFailure.forLoad(CancellationError(), source: "s").status == 502)
    }
}
