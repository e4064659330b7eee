import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// `webimage_serve_render_sources_total{source}` (issue 36): which path each answer took, as
/// `scripts/serve-bench` reads it from `/metrics`.
@Suite struct ServingRenderSourceMetricsTests {
    /// A 1600x1200 photo-like JPEG, made once.
    static let photo = try! JPEGCoder().encode(WebImage(bitmap: Pixels.smooth(width: 1600, height: 1200)), as: .jpeg, options: ImageEncodeOptions(compressionQuality: 0.9))

    /// A fixture with the photo under its root as `big.jpg`.
    static func fixture(shrinks: Bool) throws -> ServingFixture {
        let fixture = try ServingFixture { $0.shrinksOnLoad = shrinks }
        try photo.writeWithoutSync(to: fixture.root.appendingPathComponent("big.jpg"))
        return fixture
    }

    /// The counters of `/metrics`, by source label.
    static func counts(_ fixture: ServingFixture) async throws -> [String: Int] {
        let response = await fixture.get(path: "/metrics")
        #expect(response.status == 200)
        var counts: [String: Int] = [:]
        let prefix = "webimage_serve_render_sources_total{source=\""
        for line in response.text.split(separator: "\n") where line.hasPrefix(prefix) {
            let rest = line.dropFirst(prefix.count)
            let parts = rest.split(separator: "\"")
            counts[String(parts[0])] = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "} ")))
        }
        return counts
    }

    func get(_ fixture: ServingFixture, _ path: String) async {
        let response = await fixture.get(path: "/unsafe/" + path)
        #expect(response.status == 200, "\(path): \(response.text)")
    }

    @Test func shrinkOnLoadAnswersAreCountedByTheirStart() async throws {
        let fixture = try Self.fixture(shrinks: true)
        // Every label is there from the start, at 0.
        #expect(try await Self.counts(fixture) == Dictionary(uniqueKeysWithValues: RenderSource.allCases.map { ($0.rawValue, 0) }))
        await get(fixture, "fit-in/200x150/big.jpg")
        #expect(try await Self.counts(fixture)["reduced-decode"] == 1)
        // The same URL: the result tier answers, nothing is rendered.
        await get(fixture, "fit-in/200x150/big.jpg")
        // Another result of the same plan part starts from the reduced decode held.
        await get(fixture, "fit-in/200x150/filters:quality(70)/big.jpg")
        let counts = try await Self.counts(fixture)
        #expect(counts["reduced-decode"] == 1)
        #expect(counts["result-cache"] == 1)
        #expect(counts["reduced-memory"] == 1)
        #expect(counts["full-decode"] == 0)
        #expect(counts["full-memory"] == 0)
        #expect(counts["halved-copy"] == 0)
        #expect(fixture.server.metrics.renderCount(from: .reducedMemory) == 1)
    }

    @Test func wholeDecodesAndHalvedCopiesAreCounted() async throws {
        let fixture = try Self.fixture(shrinks: false)
        // 800x600 of 1600x1200 leaves less than a 3x reduction after halving: the whole decode.
        await get(fixture, "fit-in/800x600/big.jpg")
        #expect(try await Self.counts(fixture)["full-decode"] == 1)
        await get(fixture, "fit-in/700x525/big.jpg")
        #expect(try await Self.counts(fixture)["full-memory"] == 1)
        // 100x75: resampled from the 400x300 halved copy.
        await get(fixture, "fit-in/100x75/big.jpg")
        let counts = try await Self.counts(fixture)
        #expect(counts["halved-copy"] == 1)
        #expect(counts["full-decode"] == 1)
        #expect(counts["full-memory"] == 1)
        #expect(counts["reduced-decode"] == 0)
    }

    @Test func requestsThatJoinAnIdenticalRenderAreShared() async throws {
        let gate = AsyncGate()
        let fixture = try ServingFixture { _ in }
        fixture.server.hooks.withLock { $0.beforeTransform = { await gate.wait() } }
        let request = ThumborRequest(signedPart: "same", source: "photos/a.jpg")
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<3 {
                group.addTask { await fixture.get(request).status }
            }
            await gate.waitForArrivals(1)
            while fixture.server.resultFlights.joinCount < 2 { await Task.yield() }
            gate.open()
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == [200, 200, 200])
        let counts = try await Self.counts(fixture)
        #expect(counts["shared"] == 2)
        #expect(counts.filter { $0.key != "shared" }.values.reduce(0, +) == 1, "one render: \(counts)")
    }
}
