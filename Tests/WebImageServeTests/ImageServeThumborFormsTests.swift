import Foundation
import SwiftWebImage
import Testing
import WebImageServe
import WebImageServer
import WebImageTestSupport

/// thumbor's URL forms through the whole server, over HTTP (issue 34): a scheme-less source
/// is fetched over `http://` when there is no file root (thumbor's documentation's first URL),
/// and `/meta/` answers JSON, or JSONP with the `callback` of the query the HTTP server passes on.
@Suite(.timeLimit(.minutes(5)))
struct ImageServeThumborFormsTests {
    @Test func thumborsDocumentationURLAndItsMetadataOverHTTP() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let origin = try LoopbackHTTPServer()
        defer { origin.stop() }
        let logo = try PNGCoder().encode(WebImage(bitmap: TestImages.gradient(width: 150, height: 100, seed: 5)), as: .png)
        origin.route("/en/latest/_images/logo-thumbor.png", .data(logo, contentType: "image/png"))
        var configuration = ImageServeTests.configuration(folder)
        configuration.coder = CodersManager(BuiltInCoders.all)
        #expect(configuration.server.fileRoot == nil)
        let serve = try ImageServe(configuration: configuration)
        try serve.start()
        let host = "127.0.0.1:\(origin.port)"

        // thumbor's documentation: /unsafe/300x200/smart/thumbor.readthedocs.io/en/latest/_images/logo-thumbor.png
        let client = try await RawHTTPConnection.open(port: serve.port)
        let image = try await client.request("/unsafe/300x200/smart/\(host)/en/latest/_images/logo-thumbor.png")
        #expect(image.status == 200)
        #expect(image.header("Content-Type") == "image/png")
        #expect(try PNGCoder().decode(Data(image.body)).pixelSize == PixelSize(width: 300, height: 200))

        let meta = try await client.request("/unsafe/meta/300x200/smart/\(host)/en/latest/_images/logo-thumbor.png")
        #expect(meta.status == 200)
        #expect(meta.header("Content-Type") == "application/json")
        let json = String(decoding: meta.body, as: UTF8.self)
        #expect(json.hasPrefix(#"{"thumbor": {"source": {"url": "127.0.0.1%3A\#(origin.port)/en/latest/_images/logo-thumbor.png", "width": 300, "height": 200, "frameCount": 1}"#), "\(json)")

        let jsonp = try await client.request("/unsafe/meta/300x200/smart/\(host)/en/latest/_images/logo-thumbor.png?callback=show")
        #expect(jsonp.status == 200)
        #expect(jsonp.header("Content-Type") == "text/javascript")
        #expect(String(decoding: jsonp.body, as: UTF8.self) == "show(" + json + ");")
        #expect(origin.statistics(for: "/en/latest/_images/logo-thumbor.png").requestCount == 1)
        client.close()
        await serve.shutdown(gracePeriod: .seconds(5))
    }
}
