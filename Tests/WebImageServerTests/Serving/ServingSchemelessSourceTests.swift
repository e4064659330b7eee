import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
import WebImageLoopbackServer
@testable import WebImageServer

/// Sources without a scheme, as thumbor's loaders take them: without a file root an HTTP source
/// (`host[:port]/path` over `http://`, thumbor's default `http_loader`), with one a file (its
/// `file_loader`), and with ``ImageServerConfiguration/fetchesMissingFilesOverHTTP`` the file
/// first, then HTTP (its `file_loader_http_fallback`). The origin is a loopback server, so the
/// host part is `127.0.0.1:<port>`; private sources are allowed unless a test turns the guard on.
@Suite struct ServingSchemelessSourceTests {
    /// The origin's address as a scheme-less source prefix: `127.0.0.1:<port>`.
    static func host(_ fixture: ServingFixture) -> String { "127.0.0.1:\(fixture.origin.port)" }

    /// A fixture without a file root whose origin serves the logo of thumbor's documentation.
    static func withoutRoot(_ configure: (inout ImageServerConfiguration) -> Void = { _ in }) throws -> ServingFixture {
        try ServingFixture(routes: ["/en/latest/_images/logo-thumbor.png": .data(ServingFixture.png(width: 120, height: 80), contentType: "image/png")]) {
            $0.fileRoot = nil
            configure(&$0)
        }
    }

    @Test func theFirstURLOfThumborsDocumentationIsFetchedOverHTTP() async throws {
        let fixture = try Self.withoutRoot()
        // thumbor's documentation: /unsafe/300x200/smart/thumbor.readthedocs.io/en/latest/_images/logo-thumbor.png
        let response = await fixture.get(path: "/unsafe/300x200/smart/\(Self.host(fixture))/en/latest/_images/logo-thumbor.png")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Type") == "image/png")
        #expect(try ServingFixture.decode(response).pixelSize == PixelSize(width: 300, height: 200))
        #expect(fixture.origin.statistics(for: "/en/latest/_images/logo-thumbor.png").requestCount == 1)
    }

    @Test func theGuardRefusesAPrivateSchemelessSourceAsAnHTTPOne() async throws {
        let fixture = try Self.withoutRoot { $0.allowsPrivateSources = false }
        let response = await fixture.get(path: "/unsafe/300x200/smart/\(Self.host(fixture))/en/latest/_images/logo-thumbor.png")
        #expect(response.status == 403)
        #expect(response.text.contains("non-public"))
        #expect(fixture.origin.totalRequestCount == 0)
    }

    @Test func theAllowListHoldsForSchemelessSources() async throws {
        let fixture = try Self.withoutRoot { $0.allowedSourceHosts = ["images.example.com"] }
        let response = await fixture.get(path: "/unsafe/\(Self.host(fixture))/a.jpg")
        #expect(response.status == 403)
        #expect(response.text.contains("allow-list"))
        let listed = try Self.withoutRoot { $0.allowedSourceHosts = ["127.0.0.1"] }
        #expect(await listed.get(path: "/unsafe/\(Self.host(listed))/a.jpg").status == 200)
    }

    @Test func percentEncodedAndPlainFormsAreOneSource() async throws {
        let fixture = try Self.withoutRoot()
        let port = fixture.origin.port
        for (index, source) in [
            "127.0.0.1:\(port)/a.jpg",
            "127.0.0.1%3A\(port)%2Fa.jpg",
            "http%3A%2F%2F127.0.0.1%3A\(port)%2Fa.jpg",
            "http%3A//127.0.0.1:\(port)/a.jpg",
            "http://127.0.0.1:\(port)/a.jpg",
            "HTTP://127.0.0.1:\(port)/a.jpg",
        ].enumerated() {
            // A size of its own per form: every request is a result-cache miss that loads.
            let response = await fixture.get(path: "/unsafe/\(10 + index)x0/\(source)")
            #expect(response.status == 200, "\(source): \(response.text)")
        }
        #expect(fixture.origin.statistics(for: "/a.jpg").requestCount >= 1)
        #expect(fixture.origin.totalRequestCount == fixture.origin.statistics(for: "/a.jpg").requestCount)
    }

    @Test func charactersAreEncodedAsThumborsLoaderEncodesThem() async throws {
        let fixture = try Self.withoutRoot()
        fixture.origin.route("/a%20b.png", .data(ServingFixture.png(), contentType: "image/png"))
        fixture.origin.route("/%C3%A9.png", .data(ServingFixture.png(), contentType: "image/png"))
        let host = Self.host(fixture)
        // Decoded once by the URL, encoded again for the fetch: a space is %20 either way.
        #expect(await fixture.get(path: "/unsafe/\(host)/a%20b.png").status == 200)
        // Encoded twice: the escape left after the URL's decoding is kept, as thumbor keeps it.
        // (Another result, no size: a sized PNG request would decode its own reduced copy from
        // the source's bytes, shrink-on-load, and this fixture keeps none on disk.)
        #expect(await fixture.get(path: "/unsafe/filters:quality(90)/\(host)/a%2520b.png").status == 200)
        #expect(await fixture.get(path: "/unsafe/\(host)/%C3%A9.png").status == 200)
        #expect(fixture.origin.statistics(for: "/a%20b.png").requestCount == 1)
        // An encoded `?` is the source URL's query, as with thumbor.
        #expect(await fixture.get(path: "/unsafe/\(host)/a.jpg%3Fv%3D2%26w%3D1").status == 200)
        #expect(fixture.origin.requests.last?.target == "/a.jpg?v=2&w=1")
    }

    @Test(arguments: [
        ("/127.0.0.1/a.jpg", "starts with /"),
        ("http:/127.0.0.1/a.jpg", "one / after its scheme"),
        ("https:/127.0.0.1/a.jpg", "one / after its scheme"),
    ])
    func schemelessSourcesThatAreNoURLAre400(source: String, reason: String) async throws {
        let fixture = try Self.withoutRoot()
        let response = await fixture.get(ThumborRequest(source: source))
        #expect(response.status == 400, "\(source): \(response.text)")
        #expect(response.text.contains(reason))
        #expect(fixture.origin.totalRequestCount == 0)
    }

    @Test func withARootASchemelessSourceIsAFile() async throws {
        let fixture = try ServingFixture()
        #expect(await fixture.get(path: "/unsafe/\(Self.host(fixture))/a.jpg").status == 404)
        #expect(fixture.origin.totalRequestCount == 0)
        // thumbor's file loader drops leading slashes: still under the root.
        #expect(await fixture.get(path: "/unsafe//photos/a.jpg").status == 200)
        #expect(await fixture.get(ThumborRequest(source: "//photos/a.jpg")).status == 200)
    }

    @Test func theFallbackFetchesAMissingFileOverHTTP() async throws {
        let fixture = try ServingFixture { $0.fetchesMissingFilesOverHTTP = true }
        let response = await fixture.get(path: "/unsafe/32x0/\(Self.host(fixture))/a.jpg")
        #expect(response.status == 200, "\(response.text)")
        #expect(fixture.origin.statistics(for: "/a.jpg").requestCount == 1)
        // A file that exists is the file: the origin is not asked.
        #expect(await fixture.get(path: "/unsafe/photos/a.jpg").status == 200)
        #expect(fixture.origin.totalRequestCount == 1)
        // A path out of the root stays refused; it is not tried over HTTP.
        #expect(await fixture.get(ThumborRequest(source: "photos/../../etc/passwd")).status == 403)
        #expect(fixture.origin.totalRequestCount == 1)
    }

    @Test func theFallbackKeepsTheGuard() async throws {
        let fixture = try ServingFixture {
            $0.fetchesMissingFilesOverHTTP = true
            $0.allowsPrivateSources = false
        }
        let response = await fixture.get(path: "/unsafe/\(Self.host(fixture))/a.jpg")
        #expect(response.status == 403)
        #expect(fixture.origin.totalRequestCount == 0)
    }

    @Test func theFallbackIsPartOfTheResultKeysOnlyWhenOn() {
        var configuration = ImageServerConfiguration()
        configuration.fileRoot = URL(fileURLWithPath: "/srv/images")
        let without = ImageServer.sourceRulesTag(configuration)
        configuration.fetchesMissingFilesOverHTTP = true
        #expect(ImageServer.sourceRulesTag(configuration) != without)
    }

    @Test(arguments: [
        ("http://a/b", "http"), ("HTTPS://a/b", "https"), ("photos://ABC", "photos"), ("s3+x.y-z://b", "s3+x.y-z"),
        ("example.com/a.png", nil), ("example.com/r?u=http://b/c", nil), ("1ab://x", nil), ("://x", nil), ("a b://x", nil),
    ] as [(String, String?)])
    func schemes(source: String, scheme: String?) {
        #expect(SourceResolver.scheme(of: source) == scheme)
    }

    @Test(arguments: [
        ("example.com/a b.png", true, "http://example.com/a%20b.png"),
        ("example.com/a%20b.png", true, "http://example.com/a%20b.png"),
        ("example.com/é.png", true, "http://example.com/%C3%A9.png"),
        ("example.com/a.png?x=1&y=(2)#top", true, "http://example.com/a.png?x=1&y=(2)#top"),
        ("example.com/a\"<>^`{|}.png", true, "http://example.com/a%22%3C%3E%5E%60%7B%7C%7D.png"),
        ("httpbin.org/a.png", true, "http://httpbin.org/a.png"),
        ("127.0.0.1:8080/a.png", true, "http://127.0.0.1:8080/a.png"),
        ("https://example.com/a b.png", false, "https://example.com/a%20b.png"),
        ("https://example.com/a%2Fb c.png", false, "https://example.com/a%2Fb%20c.png"),
        ("http://[::1]:8080/a[1].png", false, "http://[::1]:8080/a%5B1%5D.png"),
        ("[2001:db8::1]/a.png?x=[1]", true, "http://[2001:db8::1]/a.png?x=%5B1%5D"),
    ])
    func httpSourceURLs(source: String, addsScheme: Bool, url: String) {
        #expect(HTTPSourceURL.url(for: source, addsScheme: addsScheme)?.absoluteString == url)
    }

    @Test func aSourceWithNoHostIsNoURL() {
        #expect(HTTPSourceURL.url(for: "/a.png", addsScheme: true) == nil)
        #expect(HTTPSourceURL.url(for: "", addsScheme: true) == nil)
    }
}
