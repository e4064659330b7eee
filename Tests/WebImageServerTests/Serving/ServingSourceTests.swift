import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebImageLoopbackServer
@testable import WebImageServer

@Suite struct ServingSourceTests {
    @Test func aFileUnderTheRootIsServed() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(ThumborRequest(source: "photos/a.jpg"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/jpeg")
        let image = try ServingFixture.decode(response)
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test(arguments: [
        ("/etc/passwd", 404),  // thumbor's file loader drops the leading `/`: etc/passwd under the root
        ("../etc/passwd", 403),
        ("photos/../../etc/passwd", 403),
        ("photos/missing.jpg", 404),
        ("photos", 404),
    ])
    func fileSourcesStayInTheRoot(source: String, status: Int) async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(ThumborRequest(source: source))
        #expect(response.status == status, "\(source): \(response.text)")
    }

    @Test func aSymbolicLinkOutOfTheRootIs403() async throws {
        let fixture = try ServingFixture()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-outside-\(UUID().uuidString).jpg")
        try ServingFixture.jpeg().writeWithoutSync(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(at: fixture.root.appendingPathComponent("escape.jpg"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: fixture.root.appendingPathComponent("inside.jpg"), withDestinationURL: fixture.root.appendingPathComponent("photos/a.jpg"))
        #expect(await fixture.get(ThumborRequest(source: "escape.jpg")).status == 403)
        #expect(await fixture.get(ThumborRequest(source: "inside.jpg")).status == 200)
    }

    @Test func aFileOverTheByteLimitIs413() async throws {
        let fixture = try ServingFixture { $0.maximumSourceBytes = 100 }
        #expect(await fixture.get(ThumborRequest(source: "photos/a.jpg")).status == 413)
    }

    @Test func anOriginImageIsServed() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(ThumborRequest(source: fixture.originSource("/b.png")))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/png")
        #expect(fixture.origin.statistics(for: "/b.png").requestCount == 1)
    }

    @Test func privateSourcesAreRefusedByDefault() async throws {
        let fixture = try ServingFixture { $0.allowsPrivateSources = false }
        let response = await fixture.get(ThumborRequest(source: fixture.originSource("/a.jpg")))
        #expect(response.status == 403)
        #expect(response.text.contains("non-public"))
        #expect(fixture.origin.statistics(for: "/a.jpg").requestCount == 0)
    }

    @Test func anInnerOriginCanBeLetThroughWithTheGuardOn() async throws {
        let fixture = try ServingFixture {
            $0.allowsPrivateSources = false
            $0.downloaderConfiguration.allowedNonPublicAddresses = ["127.0.0.1"]
        }
        #expect(await fixture.get(ThumborRequest(source: fixture.originSource("/a.jpg"))).status == 200)
    }

    @Test func hostsOffTheAllowListAre403() async throws {
        let fixture = try ServingFixture { $0.allowedSourceHosts = ["images.example.com", "*.cdn.example"] }
        let response = await fixture.get(ThumborRequest(source: fixture.originSource("/a.jpg")))
        #expect(response.status == 403)
        #expect(fixture.origin.statistics(for: "/a.jpg").requestCount == 0)
        let listed = try ServingFixture { $0.allowedSourceHosts = ["127.0.0.1"] }
        #expect(await listed.get(ThumborRequest(source: listed.originSource("/a.jpg"))).status == 200)
    }

    @Test func allowListPatterns() {
        #expect(SourceResolver.host("a.cdn.example", matches: "*.cdn.example"))
        #expect(SourceResolver.host("x.a.cdn.example", matches: "*.cdn.example"))
        #expect(!SourceResolver.host("cdn.example", matches: "*.cdn.example"))
        #expect(!SourceResolver.host("evilcdn.example", matches: "*.cdn.example"))
        #expect(SourceResolver.host("images.example.com.", matches: "images.example.com"))
        #expect(!SourceResolver.host("images.example.com.evil", matches: "images.example.com"))
    }

    @Test(arguments: [(404, 404), (410, 404), (500, 502), (403, 502)])
    func originStatusesMap(origin: Int, expected: Int) async throws {
        let fixture = try ServingFixture(routes: ["/x.jpg": .status(origin)])
        let response = await fixture.get(ThumborRequest(source: fixture.originSource("/x.jpg")))
        #expect(response.status == expected, "\(response.text)")
    }

    @Test func aClosedOriginIs502() async throws {
        let fixture = try ServingFixture()
        let port = try ClosedLoopbackPort()
        let response = await fixture.get(ThumborRequest(source: "http://127.0.0.1:\(port.port)/a.jpg"))
        #expect(response.status == 502)
    }

    @Test func anOriginBodyOverTheLimitIs413() async throws {
        let fixture = try ServingFixture(routes: ["/big.jpg": .huge(byteCount: 4096)]) { $0.maximumSourceBytes = 1024 }
        let declared = await fixture.get(ThumborRequest(source: fixture.originSource("/big.jpg")))
        #expect(declared.status == 413, "\(declared.text)")
        let undeclared = try ServingFixture(routes: ["/big.jpg": .huge(byteCount: 4096, declareLength: false)]) { $0.maximumSourceBytes = 1024 }
        #expect(await undeclared.get(ThumborRequest(source: undeclared.originSource("/big.jpg"))).status == 413)
    }

    @Test func dataThatIsNoImageIs422() async throws {
        let fixture = try ServingFixture(routes: ["/x.jpg": .data(Data("hello, not an image".utf8), contentType: "image/jpeg")])
        #expect(await fixture.get(ThumborRequest(source: fixture.originSource("/x.jpg"))).status == 422)
    }

    @Test func svgIsNeverPassedThrough() async throws {
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#.utf8)
        let fixture = try ServingFixture(routes: ["/x.svg": .data(svg, contentType: "image/svg+xml")])
        let response = await fixture.get(ThumborRequest(source: fixture.originSource("/x.svg")))
        #expect(response.status == 422)
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(!response.body.starts(with: Data("<svg".utf8)))
    }

    @Test func unknownSchemesAre400AndRegisteredOnesUseTheirLoader() async throws {
        let fixture = try ServingFixture()
        #expect(await fixture.get(ThumborRequest(source: "photos://ABC")).status == 400)
        let loader = MockImageLoader(schemes: ["photos"])
        loader.respond(to: URL(string: "photos://ABC")!, with: .image(TestImages.still(width: 10, height: 8, format: .jpeg), data: Data([1, 2, 3])))
        let photos = try ServingFixture { $0.sourceLoaders = ["photos": loader] }
        let response = await photos.get(ThumborRequest(source: "photos://ABC"))
        #expect(response.status == 200)
        #expect(try ServingFixture.decode(response).pixelSize == PixelSize(width: 10, height: 8))
    }

    @Test func originalsAreCachedAndCoalesced() async throws {
        let gate = AsyncGate()
        let fixture = try ServingFixture(routes: ["/slow.jpg": .delayedHeaders(until: gate, then: .data(ServingFixture.jpeg(), contentType: "image/jpeg"))])
        let count = 6
        let joined = Locked(0)
        let allJoined = AsyncGate()
        let observation = fixture.manager.addEventObserver { event in
            if case .joined = event.kind {
                if joined.withLock({ $0 += 1; return $0 }) == count - 1 { allJoined.open() }
            }
        }
        defer { observation.cancel() }
        let source = fixture.originSource("/slow.jpg")
        let statuses = await withTaskGroup(of: Int.self) { group in
            for quality in 0..<count {
                // Distinct results (different qualities), one source.
                group.addTask { await fixture.get(ThumborRequest(signedPart: "q\(quality)", filters: [.quality(50 + quality)], source: source)).status }
            }
            await allJoined.wait()
            gate.open()
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: count))
        #expect(fixture.origin.statistics(for: "/slow.jpg").requestCount == 1)
        #expect(fixture.server.metrics.originFetchCount == 1)
        // A later request for another result is made from the cached original: no fetch.
        let later = await fixture.get(ThumborRequest(signedPart: "later", filters: [.grayscale], source: source))
        #expect(later.status == 200)
        #expect(fixture.origin.statistics(for: "/slow.jpg").requestCount == 1)
        #expect(fixture.entries.last?.cacheTier == .originalMemory)
    }
}
