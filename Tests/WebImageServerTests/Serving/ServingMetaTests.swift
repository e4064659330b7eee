import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// `/meta/` and `/unsafe/meta/`: thumbor's JSON metadata instead of the image, its JSONP form,
/// its caching, and the JSON writer's Python forms.
@Suite struct ServingMetaTests {
    @Test func metaAnswersJSONWithTheOperations() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(path: "/unsafe/meta/-32x32/photos/a.jpg")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Vary") == nil)
        #expect(response.header("ETag") != nil)
        // photos/a.jpg is 64x48: cropped to the square around the centre, resized, flipped.
        #expect(response.text == #"{"thumbor": {"source": {"url": "photos/a.jpg", "width": 32, "height": 32, "frameCount": 1}, "operations": [{"type": "crop", "left": 8, "top": 0, "right": 56, "bottom": 48}, {"type": "resize", "width": 32.0, "height": 32.0}, {"type": "flip_horizontally"}], "target": {"width": 32.0, "height": 32.0}, "focal_points": [{"x": 32, "y": 24, "z": 1.0, "height": 1, "width": 1, "origin": "alignment"}]}}"#)
    }

    @Test func aSignedMetaURLIsChecked() async throws {
        let fixture = try ServingFixture { $0.allowsUnsigned = false }
        let signature = ThumborSigner(key: "secret").signature(for: "meta/fit-in/16x16/photos/a.jpg")
        let response = await fixture.get(path: "/\(signature)/meta/fit-in/16x16/photos/a.jpg")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.text.contains(#""operations": [{"type": "resize", "width": 16.0, "height": 12}]"#))
        #expect(await fixture.get(path: "/\(signature)/meta/fit-in/17x16/photos/a.jpg").status == 403)
    }

    @Test func anAnimatedSourceCountsItsFrames() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(path: "/unsafe/meta/anim.gif")
        #expect(response.status == 200)
        #expect(response.text.contains(#""source": {"url": "anim.gif", "width": 20, "height": 10, "frameCount": 3}"#), "\(response.text)")
    }

    @Test func aFormatTheServerCannotWriteIsNoMatterForMeta() async throws {
        let fixture = try ServingFixture()
        var configuration = fixture.server.configuration
        configuration.accessLog = nil
        // The built-in coders write no WebP: the image URL is 400, the metadata is JSON as thumbor's.
        let server = ImageServer(configuration: configuration, originalsCache: MemoryCache(), resultCache: nil, coder: CodersManager(BuiltInCoders.all))
        #expect(await server.respond(to: ServerRequest(path: "/unsafe/16x16/filters:format(webp)/photos/a.jpg")).status == 400)
        let response = await server.respond(to: ServerRequest(path: "/unsafe/meta/16x16/filters:format(webp)/photos/a.jpg"))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "application/json")
    }

    @Test func aMissingSourceIs404() async throws {
        let fixture = try ServingFixture()
        #expect(await fixture.get(path: "/unsafe/meta/16x16/photos/missing.jpg").status == 404)
    }

    @Test func aCallbackWrapsTheJSONPerRequest() async throws {
        let fixture = try ServingFixture()
        let plain = await fixture.get(path: "/unsafe/meta/16x16/photos/a.jpg")
        let first = await fixture.server.respond(to: ServerRequest(path: "/unsafe/meta/16x16/photos/a.jpg", query: "callback=show"))
        // The second comes from the memory tier (the plain JSON is kept), wrapped with its own name.
        let second = try #require(fixture.server.immediateResponse(to: ServerRequest(path: "/unsafe/meta/16x16/photos/a.jpg", query: "x=1&callback=app.meta_%24")))
        #expect(first.status == 200)
        #expect(first.header("Content-Type") == "text/javascript")
        #expect(first.text == "show(" + plain.text + ");")
        #expect(second.text == "app.meta_$(" + plain.text + ");")
        #expect(first.header("ETag") != plain.header("ETag"))
        #expect(first.header("ETag") != second.header("ETag"))
        let empty = await fixture.server.respond(to: ServerRequest(path: "/unsafe/meta/16x16/photos/a.jpg", query: "callback="))
        #expect(empty.text == plain.text)
        #expect(empty.header("Content-Type") == "application/json")
    }

    @Test(arguments: ["alert(1)//", "a b", "1abc", "a..b", "<script>", String(repeating: "a", count: 129)])
    func aCallbackThatIsNoJavaScriptNameIs400(_ name: String) async throws {
        let fixture = try ServingFixture()
        let query = "callback=" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)
        let response = await fixture.server.respond(to: ServerRequest(path: "/unsafe/meta/16x16/photos/a.jpg", query: query))
        #expect(response.status == 400, "\(name): \(response.text)")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
    }

    @Test func aMetaResultFromTheResultCacheIsJSON() async throws {
        let cache = MemoryCache()
        let fixture = try ServingFixture(resultCache: cache)
        let loads = Locked(0)
        fixture.server.hooks.withLock { $0.afterLoad = { _ in loads.withLock { $0 += 1 } } }
        // What another server of the fleet stored under the result's key.
        let request = try ThumborURLParser.parse("/unsafe/meta/16x16/photos/a.jpg")
        let stored = Data(#"{"thumbor": {"source": {"url": "photos/a.jpg"}}}"#.utf8)
        try await cache.store(nil, data: stored, forKey: fixture.server.resultKey(for: request, choice: .negotiated(.source)))
        let response = await fixture.get(path: "/unsafe/meta/16x16/photos/a.jpg")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Vary") == nil)
        #expect(response.body == stored)
        #expect(loads.withLock { $0 } == 0)
    }

    @Test func theJSONWritesPythonsForms() {
        let metadata = ThumborMetadata(
            source: "127.0.0.1:8080/a b/é?.png", width: 3, height: 2, frameCount: 1,
            operations: [.resize(width: .float(48), height: .int(1)), .flipVertically],
            focalPoints: [ThumborMetadata.FocalPoint(x: 1, y: 2, weight: .int(6), width: 3, height: 2, origin: "Ex\"pl\u{7}icit\u{1F600}")]
        )
        #expect(metadata.url == "127.0.0.1%3A8080/a%20b/%C3%A9%3F.png")
        #expect(metadata.json() == #"{"thumbor": {"source": {"url": "127.0.0.1%3A8080/a%20b/%C3%A9%3F.png", "width": 3, "height": 2, "frameCount": 1}, "operations": [{"type": "resize", "width": 48.0, "height": 1}, {"type": "flip_vertically"}], "target": {"width": 48.0, "height": 1}, "focal_points": [{"x": 1, "y": 2, "z": 6, "height": 2, "width": 3, "origin": "Ex\"pl\u0007icit\ud83d\ude00"}]}}"#)
        #expect(ThumborMetadata(source: "a", width: 1, height: 1, frameCount: 1, operations: [], focalPoints: []).json(callback: "cb")
            == #"cb({"thumbor": {"source": {"url": "a", "width": 1, "height": 1, "frameCount": 1}, "operations": [], "target": {"width": 1, "height": 1}}});"#)
    }

    @Test func callbackNames() {
        for name in ["cb", "jQuery123_456", "app.meta", "$", "_x.$y"] { #expect(ThumborMetadata.isCallbackName(name), "\(name)") }
        for name in ["", "1a", "a.", ".a", "a-b", "a(b)", "é"] { #expect(!ThumborMetadata.isCallbackName(name), "\(name)") }
    }
}
