import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebImageLoopbackServer
@testable import WebImageServer

/// Issue 33: a request's work ends at its deadline, the queue refuses before loading, the
/// filters' work is bounded, and the source rules hold for cached results.
@Suite(.timeLimit(.minutes(5)))
struct ServingWorkBoundsTests {
    /// A path of `count` `blur(radius)` filters on a `side`x`side` result of `source`.
    static func blurChain(_ count: Int, radius: Int = 40, side: Int = 1200, source: String = "photos/a.jpg") -> String {
        "/unsafe/\(side)x\(side)/filters:" + Array(repeating: "blur(\(radius))", count: count).joined(separator: ":") + "/" + source
    }

    /// Holds a transform's thread after its second filter until `gate` opens, and counts the
    /// filters applied.
    static func holdAfterSecondFilter(_ server: ImageServer, gate: ThreadGate, reached: AsyncGate) -> Locked<Int> {
        let applied = Locked(0)
        server.hooks.withLock {
            $0.afterFilter = { count in
                applied.withLock { $0 = count }
                if count == 2 {
                    reached.open()
                    gate.wait()  // blocking: the transform's own thread, not a task's
                }
            }
        }
        return applied
    }

    @Test func aRequestPastItsDeadlineStopsItsTransformAndTheServerKeepsAnswering() async throws {
        let fixture = try ServingFixture { $0.requestTimeout = .milliseconds(300) }
        // A transform that reaches its second filter is held there until the deadline has
        // been answered (one slower to get there is cancelled before it).
        let gate = ThreadGate(), reached = AsyncGate()
        let applied = Self.holdAfterSecondFilter(fixture.server, gate: gate, reached: reached)
        let response = await fixture.get(path: Self.blurChain(30, radius: 5, side: 200))
        #expect(response.status == 504)
        #expect(await fixture.get(path: "/healthcheck").status == 200)
        gate.open()
        // Abandoned by its only requester, the production was cancelled: its job stops at the
        // next filter instead of running the other 28.
        while fixture.server.admission.admittedCount > 0 || fixture.server.resultFlights.runningCount > 0 { await Task.yield() }
        #expect(applied.withLock { $0 } <= 2)
    }

    @Test func theRenderStageStopsBetweenFiltersWhenItsTaskIsCancelled() async throws {
        let fixture = try ServingFixture()
        let stage = fixture.server.renderStage
        let original = WebImage(bitmap: TestImages.solid(RGBAColor(red: 200, green: 10, blue: 10), width: 200, height: 200))
        let thumbor = try ThumborURLParser.parse(Self.blurChain(30, radius: 5, side: 200))
        let gate = ThreadGate(), reached = AsyncGate()
        let applied = Locked(0)
        let afterFilter: @Sendable (Int) -> Void = { count in
            applied.withLock { $0 = count }
            if count == 2 {
                reached.open()
                gate.wait()  // blocking: the transform's own thread, not a task's
            }
        }
        let task = Task { () throws -> EncodedResult in
            try stage.admit()
            defer { stage.release() }
            return try await stage.render(original, originalKey: "k", for: thumbor, choice: .explicit(.png), maxAge: nil, resultKey: "r", afterFilter: afterFilter)
        }
        await reached.wait()
        task.cancel()
        gate.open()
        let outcome = await task.result
        guard case .failure(let error) = outcome, let failure = error as? ServingFailure else { Issue.record("the render ran its 30 blurs"); return }
        #expect(failure.status == 503 && failure.message.contains("cancelled"))
        #expect(applied.withLock { $0 } == 2, "no filter ran after the cancellation")
        while stage.admission.inFlight > 0 { await Task.yield() }
        #expect(stage.admission.admittedCount == 0)
    }

    @Test func aFullQueueRefusesBeforeTheSourceIsLoaded() async throws {
        let fixture = try ServingFixture {
            $0.transformConcurrency = 1
            $0.maximumQueuedTransforms = 0
        }
        let loads = Locked(0)
        fixture.server.hooks.withLock { $0.afterLoad = { _ in loads.withLock { $0 += 1 } } }
        let gate = AsyncGate()
        fixture.server.hooks.withLock { $0.beforeTransform = { await gate.wait() } }
        async let first = fixture.get(ThumborRequest(signedPart: "1", source: "photos/a.jpg"))
        await gate.waitForArrivals(1)
        let refused = await fixture.get(ThumborRequest(source: fixture.originSource("/b.png")))
        #expect(refused.status == 503 && refused.header("Retry-After") == "1")
        #expect(fixture.origin.statistics(for: "/b.png").requestCount == 0, "the refused request fetched nothing")
        #expect(loads.withLock { $0 } == 1)
        gate.open()
        #expect(await first.status == 200)
    }

    @Test func tooManyFiltersOrTooMuchFilterWorkIs400BeforeAnyLoad() async throws {
        let fixture = try ServingFixture { $0.maximumFilterCount = 4 }
        let loads = Locked(0)
        fixture.server.hooks.withLock { $0.afterLoad = { _ in loads.withLock { $0 += 1 } } }
        let many = await fixture.get(path: Self.blurChain(5, radius: 1, side: 10))
        #expect(many.status == 400 && many.text.contains("5 filters"))
        #expect(loads.withLock { $0 } == 0)
        #expect(await fixture.get(path: Self.blurChain(4, radius: 1, side: 10)).status == 200)

        let work = try ServingFixture { $0.maximumFilterWork = 5_000_000 }
        // 3 blurs of radius 50 on 100x100: 3 x 10,000 pixels x 202 taps = 6,060,000 pixel operations.
        let heavy = await work.get(path: Self.blurChain(3, radius: 50, side: 100))
        #expect(heavy.status == 400 && heavy.text.contains("pixel operations"))
        #expect(await work.get(path: Self.blurChain(1, radius: 50, side: 100)).status == 200)
    }

    @Test func filterWorkCountsPixelsTimesKernelTaps() throws {
        let size = PixelSize(width: 100, height: 100)
        let parse = { (path: String) in try ThumborURLParser.parse(path) }
        // blur(r): thumbor's kernel of 2r + 1 taps, across then down, whatever the sigma.
        #expect(try parse("/unsafe/filters:blur(10):grayscale():quality(80)/a.jpg").filterWork(outputSize: size) == 10_000 * (42 + 1))
        #expect(try parse("/unsafe/filters:blur(10,2)/a.jpg").filterWork(outputSize: size) == 10_000 * 42)
        #expect(try parse("/unsafe/filters:blur(500)/a.jpg").filterWork(outputSize: size) == 10_000 * 602)
        #expect(try parse("/unsafe/filters:convolution(1;2;1;2;4;2;1;2;1,3)/a.jpg").filterWork(outputSize: size) == 10_000 * 9)
        #expect(try parse("/unsafe/filters:sharpen(1,1,true):sharpen(1,1,false)/a.jpg").filterWork(outputSize: size) == 10_000 * (30 + 90))
        #expect(try parse("/unsafe/filters:equalize():noise(5):rgb(1,1,1):colorize(1,1,1,000000):curve([],[],[],[])/a.jpg").filterWork(outputSize: size) == 10_000 * 5)
        #expect(try parse("/unsafe/filters:fill(blur)/a.jpg").filterWork(outputSize: size) == 10_000 * 51)
        #expect(try parse("/unsafe/filters:format(webp):max_age(1)/a.jpg").filterWork(outputSize: size) == 0)
        #expect(try parse("/unsafe/filters:" + Array(repeating: "blur(1000)", count: 40).joined(separator: ":") + "/a.jpg")
            .filterWork(outputSize: PixelSize(width: 1 << 30, height: 1 << 30)) == .max)
    }

    @Test func aCachedResultIsNotServedWhenTheSourceRulesNoLongerAdmitIt() async throws {
        let results = MemoryCache()
        let lax = try ServingFixture(resultCache: results) { $0.resultMemoryCapacity = 0 }
        let source = lax.originSource("/a.jpg")
        let request = ThumborRequest(signedPart: source, source: source)
        #expect(await lax.get(request).status == 200)
        let laxKey = lax.server.resultKey(for: request, choice: .negotiated(.source))
        while await results.queryImage(forKey: laxKey) == nil { await Task.yield() }

        // The same result cache behind a server whose allow-list leaves the origin out.
        let strict = try ServingFixture(resultCache: results) {
            $0.resultMemoryCapacity = 0
            $0.allowedSourceHosts = ["images.example.com"]
        }
        let refused = await strict.get(path: "/unsafe/" + source)
        #expect(refused.status == 403)
        #expect(strict.server.resultKey(for: request, choice: .negotiated(.source)) != laxKey)
        // Keys follow the rules, not the server: a server with the same rules shares them.
        let twin = try ServingFixture(resultCache: results) { $0.resultMemoryCapacity = 0; $0.fileRoot = lax.root }
        #expect(twin.server.resultKey(for: request, choice: .negotiated(.source)) == laxKey)
        let shared = await twin.get(path: "/unsafe/" + source)
        #expect(shared.status == 200 && twin.entries.last?.cacheTier == .resultCacheMemory)
    }
}
