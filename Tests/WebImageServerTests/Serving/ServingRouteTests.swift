import Foundation
import Testing
import SwiftWebImage
@testable import WebImageServer

@Suite struct ServingRouteTests {
    @Test(arguments: ["/healthcheck", "/health"])
    func healthAnswersWorking(path: String) async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(path: path)
        #expect(response.status == 200)
        #expect(response.text == "WORKING")
        let head = await fixture.get(path: path, method: "HEAD")
        #expect(head.status == 200)
    }

    @Test func otherMethodsAre405() async throws {
        let fixture = try ServingFixture()
        for method in ["POST", "PUT", "DELETE"] {
            let response = await fixture.get(path: "/healthcheck", method: method)
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
        }
    }

    @Test func aLongPathIs414() async throws {
        let fixture = try ServingFixture { $0.maximumURLLength = 64 }
        let response = await fixture.get(path: "/unsafe/" + String(repeating: "a", count: 80) + ".jpg")
        #expect(response.status == 414)
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.text.hasSuffix("\n"))
        #expect(!response.text.contains("\n\n"))
    }

    @Test func aMalformedURLIs400WithAShortBody() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(path: "/")
        #expect(response.status == 400)
        #expect(response.text.hasPrefix("malformed thumbor URL"))
        #expect(response.body.count <= ServingFailure.maximumMessageLength + 4)
    }

    @Test func unsignedURLsAreRefusedByDefault() async throws {
        let fixture = try ServingFixture { $0 = ImageServerConfiguration(); $0.fileRoot = nil }
        #expect(fixture.server.configuration.allowsUnsigned == false)
        let response = await fixture.get(ThumborRequest(security: .unsafe, source: "photos/a.jpg"))
        #expect(response.status == 403)
        #expect(response.text.contains("unsigned"))
    }

    @Test func aBadSignatureIs403() async throws {
        let fixture = try ServingFixture { $0.allowsUnsigned = false }
        let response = await fixture.get(ThumborRequest(security: .signed("AAAAAAAAAAAAAAAAAAAAAAAAAAA="), signedPart: "photos/a.jpg", source: "photos/a.jpg"), path: "/AAAAAAAAAAAAAAAAAAAAAAAAAAA=/photos/a.jpg")
        #expect(response.status == 403)
        #expect(response.text.contains("signature"))
    }

    @Test func aSignedURLWithoutAKeyIs403() async throws {
        let fixture = try ServingFixture { $0.securityKey = nil }
        let response = await fixture.get(ThumborRequest(security: .signed("x"), signedPart: "photos/a.jpg", source: "photos/a.jpg"), path: "/x/photos/a.jpg")
        #expect(response.status == 403)
    }

    @Test func metricsCountRequestsTiersAndFetches() async throws {
        let fixture = try ServingFixture()
        let request = ThumborRequest(source: fixture.originSource("/a.jpg"))
        #expect(await fixture.get(request).status == 200)
        #expect(await fixture.get(request).status == 200)
        _ = await fixture.get(path: "/healthcheck", method: "POST")
        let metrics = await fixture.get(path: "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = metrics.text
        #expect(text.contains("webimage_serve_requests_total{status=\"200\"} 2\n"))
        #expect(text.contains("webimage_serve_requests_total{status=\"405\"} 1\n"))
        #expect(text.contains("webimage_serve_cache_hits_total{tier=\"result-memory\"} 1\n"))
        #expect(text.contains("webimage_serve_origin_fetches_total{source=\"http\"} 1\n"))
        #expect(text.contains("webimage_serve_origin_bytes_total{source=\"http\"} \(ServingFixture.jpeg().count)\n"))
        #expect(text.contains("webimage_serve_request_duration_seconds_count 3\n"))
        #expect(text.contains("webimage_serve_request_duration_seconds_bucket{le=\"+Inf\"} 3\n"))
        #expect(text.contains("webimage_serve_transform_queue_depth 0\n"))
        #expect(text.contains("webimage_serve_transforms_in_flight 0\n"))
        #expect(text.contains("webimage_serve_requests_in_flight 1\n"))
    }

    @Test func theAccessLogHasOneLinePerRequest() async throws {
        let fixture = try ServingFixture()
        let request = ThumborRequest(source: "photos/a.jpg")
        let first = await fixture.get(request, path: "/unsafe/photos/a.jpg")
        _ = await fixture.get(request, path: "/unsafe/photos/a.jpg")
        _ = await fixture.get(path: "/health")
        let entries = fixture.entries
        #expect(entries.count == 3)
        #expect(entries[0].method == "GET")
        #expect(entries[0].path == "/unsafe/photos/a.jpg")
        #expect(entries[0].status == 200)
        #expect(entries[0].bytes == first.body.count)
        #expect(entries[0].cacheTier == .none)
        #expect(entries[1].cacheTier == .resultMemory)
        #expect(entries[2].path == "/health")
        let line = entries[1].line
        #expect(line.hasPrefix("- GET /unsafe/photos/a.jpg 200 \(first.body.count) "))
        #expect(line.hasSuffix("ms result-memory"))
    }

    @Test func theAccessLogLineEscapesControlCharacters() {
        let entry = ImageServerAccessLogEntry(method: "GET", path: "/a\nb c", status: 400, bytes: 3, duration: 0.0012, cacheTier: .none)
        #expect(entry.line == "- GET /a%0Ab%20c 400 3 1.2ms none")
    }
}

/// The same checks through real paths, parsed and signed as clients send them.
@Suite struct ServingURLTests {
    @Test func anUnsafePathIsServedWhenAllowed() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(path: "/unsafe/filters:format(png)/photos/a.jpg")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/png")
        let refused = try ServingFixture { $0.allowsUnsigned = false }
        #expect(await refused.get(path: "/unsafe/photos/a.jpg").status == 403)
    }

    @Test func aSignedPathIsServedAndATamperedOneIs403() async throws {
        let fixture = try ServingFixture { $0.allowsUnsigned = false }
        let signedPart = "filters:format(png)/photos/a.jpg"
        let signature = ThumborSigner(key: "secret").signature(for: signedPart)
        let response = await fixture.get(path: "/\(signature)/\(signedPart)")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "image/png")
        let tampered = await fixture.get(path: "/\(signature)/filters:format(jpeg)/photos/a.jpg")
        #expect(tampered.status == 403)
        let otherKey = ThumborSigner(key: "other").signature(for: signedPart)
        #expect(await fixture.get(path: "/\(otherKey)/\(signedPart)").status == 403)
    }

    @Test func theSignedAndUnsafeFormsShareTheResultCache() async throws {
        let results = MemoryCache()
        let fixture = try ServingFixture(resultCache: results)
        let loads = Locked(0)
        fixture.server.hooks.withLock { $0.afterLoad = { _ in loads.withLock { $0 += 1 } } }
        let unsafe = await fixture.get(path: "/unsafe/photos/a.jpg")
        let key = fixture.server.resultKey(for: ThumborRequest(signedPart: "photos/a.jpg", source: "photos/a.jpg"), choice: .negotiated(.source))
        while await results.queryImage(forKey: key) == nil { await Task.yield() }
        let signature = ThumborSigner(key: "secret").signature(for: "photos/a.jpg")
        let signed = await fixture.get(path: "/\(signature)/photos/a.jpg")
        #expect(signed.status == 200)
        #expect(signed.body == unsafe.body)
        #expect(loads.withLock { $0 } == 1)
    }

    @Test func anOriginURLInThePathIsServed() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(path: "/unsafe/" + fixture.originSource("/a.jpg"))
        #expect(response.status == 200, "\(response.text)")
        #expect(fixture.origin.statistics(for: "/a.jpg").requestCount == 1)
    }

    @Test(arguments: ["/unsafe/%2e%2e/etc/passwd", "/unsafe/photos/%2E%2E/%2E%2E/etc/passwd", "/unsafe/%2Fetc%2Fpasswd"])
    func encodedEscapesStayRefused(path: String) async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(path: path)
        // `/etc/passwd` is `etc/passwd` under the root (thumbor's file loader drops leading
        // slashes), which does not exist there: 404. Never the file outside.
        #expect([400, 403, 404].contains(response.status), "\(path): \(response.status) \(response.text)")
    }

    @Test func maxAgeOverridesTheCacheControl() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(path: "/unsafe/filters:max_age(60)/photos/a.jpg")
        #expect(response.header("Cache-Control") == "public, max-age=60")
        let again = await fixture.get(path: "/unsafe/filters:max_age(60)/photos/a.jpg")
        #expect(again.header("Cache-Control") == "public, max-age=60")
        let none = await fixture.get(path: "/unsafe/filters:max_age(0)/photos/a.jpg")
        #expect(none.header("Cache-Control") == "no-cache")
    }
}
