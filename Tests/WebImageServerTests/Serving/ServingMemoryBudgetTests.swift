import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebImageLoopbackServer
@testable import WebImageServer

/// The image server under a memory budget: decodes admitted against it, held until their
/// result is rendered, refused clearly, and reported in `/metrics`.
@Suite struct ServingMemoryBudgetTests {
    /// The bytes of the fixture's 64x48 JPEG, decoded.
    static let decodedBytes = 64 * 48 * 4

    /// A fixture whose server's decodes share `budget`, with a second JPEG source `c.jpg`.
    static func fixture(_ budget: MemoryBudget) throws -> ServingFixture {
        let fixture = try ServingFixture {
            $0.memoryBudget = budget
            $0.transformConcurrency = 1
        }
        try ServingFixture.jpeg().writeWithoutSync(to: fixture.root.appendingPathComponent("c.jpg"))
        return fixture
    }

    @Test func aDecodeWaitsForTheRenderThatHoldsTheBudget() async throws {
        let budget = MemoryBudget(limit: Self.decodedBytes + 100, fixedBytes: 0, maximumWait: .seconds(600))
        let fixture = try Self.fixture(budget)
        let transforms = AsyncGate()
        fixture.server.hooks.withLock { $0.beforeTransform = { await transforms.wait() } }
        let waiting = AsyncGate()
        budget.waitStarted.withLock { $0 = { Task { await waiting.wait() } } }

        async let first = fixture.get(ThumborRequest(signedPart: "a", source: "photos/a.jpg"))
        await transforms.waitForArrivals(1)
        // The first decode holds the budget until its result is rendered.
        #expect(budget.usage.reservedBytes == Self.decodedBytes)
        async let second = fixture.get(ThumborRequest(signedPart: "c", source: "c.jpg"))
        await waiting.waitForArrivals(1)
        #expect(await fixture.get(path: "/metrics").text.contains("webimage_serve_memory_decode_waits_total 1\n"))
        transforms.open()
        #expect(await first.status == 200)
        #expect(await second.status == 200)
        waiting.open()
        #expect(budget.usage.reservedBytes == 0)
        #expect(budget.usage.reservations == 0)
        #expect(budget.usage.peakReservedBytes == Self.decodedBytes)
    }

    @Test func aSpentBudgetAnswers503AfterTheWait() async throws {
        let budget = MemoryBudget(limit: Self.decodedBytes + 100, fixedBytes: 0, maximumWait: .milliseconds(50))
        let fixture = try Self.fixture(budget)
        let transforms = AsyncGate()
        fixture.server.hooks.withLock { $0.beforeTransform = { await transforms.wait() } }
        async let first = fixture.get(ThumborRequest(signedPart: "a", source: "photos/a.jpg"))
        await transforms.waitForArrivals(1)
        let refused = await fixture.get(ThumborRequest(signedPart: "c", source: "c.jpg"))
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.text.contains("memory budget"))
        transforms.open()
        #expect(await first.status == 200)
        #expect(budget.usage.refusals == 1)
        #expect(budget.usage.reservedBytes == 0)
        // Room again: the same source is served.
        #expect(await fixture.get(ThumborRequest(signedPart: "c2", source: "c.jpg")).status == 200)
    }

    @Test func aSourceLargerThanTheBudgetIs422() async throws {
        let budget = MemoryBudget(limit: Self.decodedBytes - 1, fixedBytes: 0)
        let fixture = try Self.fixture(budget)
        let refused = await fixture.get(ThumborRequest(signedPart: "a", source: "photos/a.jpg"))
        #expect(refused.status == 422)
        #expect(refused.text.contains("photos/a.jpg"))
        #expect(budget.usage.refusals == 1)
        #expect(budget.usage.reservedBytes == 0)
    }

    @Test func originsAreDecodedUnderTheBudgetToo() async throws {
        let budget = MemoryBudget(limit: 1 << 30, fixedBytes: 0)
        let fixture = try Self.fixture(budget)
        let response = await fixture.get(ThumborRequest(signedPart: "o", source: fixture.originSource("/a.jpg")))
        #expect(response.status == 200)
        #expect(budget.usage.peakReservedBytes == Self.decodedBytes)
        #expect(budget.usage.reservedBytes == 0)
    }

    @Test func metricsReportTheBudget() async throws {
        let budget = MemoryBudget(limit: 1 << 30, fixedBytes: 256 << 20)
        let fixture = try Self.fixture(budget)
        let text = await fixture.get(path: "/metrics").text
        #expect(text.contains("webimage_serve_memory_limit_bytes 1073741824\n"))
        #expect(text.contains("webimage_serve_memory_fixed_bytes 268435456\n"))
        #expect(text.contains("webimage_serve_memory_decode_capacity_bytes 805306368\n"))
        #expect(text.contains("webimage_serve_memory_reserved_bytes 0\n"))
        #expect(text.contains("webimage_serve_memory_decode_refusals_total 0\n"))
        #expect(text.contains("webimage_serve_memory_resident_bytes "))
    }
}
