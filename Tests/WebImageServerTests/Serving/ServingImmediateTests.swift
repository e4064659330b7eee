import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebImageLoopbackServer
@testable import WebImageServer

/// Issue 33: what needs no work is answered on the calling thread (`immediateResponse(to:)`),
/// with the same answer, headers and log entry as `respond(to:)` gives; a cancelled request
/// (its client hung up) stops its work and is logged as 499.
@Suite(.timeLimit(.minutes(5)))
struct ServingImmediateTests {
    /// A response's header fields as lines, for comparing two answers.
    static func lines(_ response: ServerResponse) -> [String] {
        response.headers.map { "\($0.name): \($0.value)" }
    }

    @Test func healthMetricsAndRefusalsAreImmediate() throws {
        let fixture = try ServingFixture()
        let server = fixture.server
        for path in ["/health", "/healthcheck"] {
            let health = try #require(server.immediateResponse(to: ServerRequest(path: path)))
            #expect(health.status == 200 && health.text == "WORKING" && health.header("Cache-Control") == "no-store")
        }
        let metrics = try #require(server.immediateResponse(to: ServerRequest(path: "/metrics")))
        #expect(metrics.status == 200 && metrics.text.contains("webimage_serve_requests_total{status=\"200\"} 2"))
        let post = try #require(server.immediateResponse(to: ServerRequest(method: "POST", path: "/health")))
        #expect(post.status == 405 && post.header("Allow") == "GET, HEAD")
        let long = try #require(server.immediateResponse(to: ServerRequest(path: "/unsafe/" + String(repeating: "a", count: 5000))))
        #expect(long.status == 414)
        #expect(fixture.entries.map(\.status) == [200, 200, 200, 405, 414], "each immediate answer is logged once")
    }

    @Test func aResultInMemoryIsImmediateWithTheHeadersItWasMadeWith() async throws {
        let fixture = try ServingFixture()
        let server = fixture.server
        let path = "/unsafe/20x15/photos/a.jpg"
        #expect(server.immediateResponse(to: ServerRequest(path: path)) == nil, "a miss needs work")
        #expect(fixture.entries.isEmpty, "a request left to respond(to:) is logged by it alone")
        let made = await fixture.get(path: path)
        try #require(made.status == 200)
        let immediate = try #require(server.immediateResponse(to: ServerRequest(path: path)))
        #expect(immediate.status == 200 && immediate.body == made.body)
        #expect(Self.lines(immediate) == Self.lines(made))
        #expect(Self.lines(immediate).contains { $0.hasPrefix("ETag: \"") } && immediate.header("Cache-Control")?.hasPrefix("public, max-age=") == true)
        // What Accept allows is part of the key: another choice of format is not this result.
        #expect(server.immediateResponse(to: ServerRequest(path: path, headers: [("Accept", "image/webp,*/*")])) == nil)
        let etag = try #require(made.header("ETag"))
        let conditional = try #require(server.immediateResponse(to: ServerRequest(path: path, headers: [("If-None-Match", etag)])))
        #expect(conditional.status == 304 && conditional.body.isEmpty && conditional.header("ETag") == etag)
        let head = try #require(server.immediateResponse(to: ServerRequest(method: "HEAD", path: path)))
        #expect(head.status == 200 && Self.lines(head) == Self.lines(made))
        let entries = fixture.entries
        #expect(entries.map(\.status) == [200, 200, 304, 200])
        #expect(entries.dropFirst().allSatisfy { $0.cacheTier == .resultMemory })
        // The normal path answers the same from the same tier.
        let again = await fixture.get(path: path)
        #expect(again.body == made.body && Self.lines(again) == Self.lines(made))
        #expect(fixture.entries.last?.cacheTier == .resultMemory)
    }

    @Test func aCancelledRequestStopsItsTransformAndIsLoggedAs499() async throws {
        let fixture = try ServingFixture()
        let gate = ThreadGate(), reached = AsyncGate()
        let applied = ServingWorkBoundsTests.holdAfterSecondFilter(fixture.server, gate: gate, reached: reached)
        let task = Task { await fixture.get(path: ServingWorkBoundsTests.blurChain(30, radius: 5, side: 200)) }
        await reached.wait()
        task.cancel()
        // Answered while the transform is still held: the requester does not wait for it.
        let response = await task.value
        #expect(response.status == 499)
        #expect(fixture.entries.map(\.status) == [499])
        let metrics = try #require(fixture.server.immediateResponse(to: ServerRequest(path: "/metrics")))
        #expect(metrics.text.contains("webimage_serve_requests_total{status=\"499\"} 1"))
        gate.open()
        // Its only requester gone, the production was cancelled: the job stops at the next filter.
        while fixture.server.admission.admittedCount > 0 || fixture.server.resultFlights.runningCount > 0 { await Task.yield() }
        #expect(applied.withLock { $0 } <= 2)
    }
}
