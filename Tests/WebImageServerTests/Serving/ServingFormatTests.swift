import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

@Suite struct ServingFormatTests {
    @Test(arguments: [
        (nil as String?, "image/jpeg"),
        ("image/webp,*/*", "image/webp"),
        ("image/avif,image/webp,*/*", "image/avif"),
        ("image/avif;q=0,image/webp", "image/webp"),
        ("image/*,*/*;q=0.8", "image/jpeg"),
    ])
    func acceptIsNegotiated(accept: String?, expected: String) async throws {
        let fixture = try ServingFixture()
        let headers: [(name: String, value: String)] = accept.map { [("Accept", $0)] } ?? []
        let response = await fixture.get(ThumborRequest(source: "photos/a.jpg"), headers: headers)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == expected)
        #expect(response.header("Vary") == "Accept")
        #expect(ImageFormat.detect(response.body).servedMediaType == expected)
        #expect(try ServingFixture.decode(response).pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test func formatAutoNegotiatesToo() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(ThumborRequest(filters: [.format(.auto)], source: "b.png"), headers: [("Accept", "image/webp")])
        #expect(response.header("Content-Type") == "image/webp")
        #expect(response.header("Vary") == "Accept")
        let plain = await fixture.get(ThumborRequest(filters: [.format(.auto)], source: "b.png"))
        #expect(plain.header("Content-Type") == "image/png")
    }

    @Test func eachAcceptGetsItsOwnResult() async throws {
        let fixture = try ServingFixture()
        let request = ThumborRequest(signedPart: "photos/a.jpg", source: "photos/a.jpg")
        let jpeg = await fixture.get(request)
        let webp = await fixture.get(request, headers: [("Accept", "image/webp")])
        let jpegAgain = await fixture.get(request, headers: [("Accept", "text/html")])
        #expect(jpeg.header("Content-Type") == "image/jpeg")
        #expect(webp.header("Content-Type") == "image/webp")
        #expect(jpegAgain.header("Content-Type") == "image/jpeg")
        #expect(jpegAgain.body == jpeg.body)
    }

    @Test func negotiationNeedsARegisteredEncoder() {
        let builtIn = CodersManager(BuiltInCoders.all)
        let accepted = AcceptedFormats(header: "image/avif,image/webp", coder: builtIn)
        #expect(accepted == .none)
        #expect(AcceptedFormats(header: "image/avif,image/webp", coder: ServingFixture.coders).tag == "aw")
    }

    @Test(arguments: [
        (ThumborOutputFormat.jpeg, "image/jpeg"),
        (.png, "image/png"),
        (.gif, "image/gif"),
        (.webp, "image/webp"),
        (.avif, "image/avif"),
    ])
    func explicitFormatsAreUsedAsAsked(format: ThumborOutputFormat, expected: String) async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(ThumborRequest(filters: [.format(format)], source: "photos/a.jpg"), headers: [("Accept", "image/avif,image/webp")])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == expected)
        #expect(response.header("Vary") == nil)
        #expect(ImageFormat.detect(response.body).servedMediaType == expected)
        #expect(try ServingFixture.decode(response).pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test func anExplicitFormatWithoutAnEncoderIs400() async throws {
        let fixture = try ServingFixture()
        let builtIn = ImageServer(configuration: fixture.server.configuration, manager: fixture.manager, resultCache: nil, coder: CodersManager(BuiltInCoders.all))
        let response = await builtIn.handle(ServerRequest(path: "/unsafe/filters:format(webp)/photos/a.jpg"), parsed: ThumborRequest(filters: [.format(.webp)], source: "photos/a.jpg"))
        #expect(response.status == 400)
        #expect(response.text.contains("webp"))
    }

    @Test func pngKeepsItsAlpha() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(ThumborRequest(source: "b.png"))
        #expect(response.header("Content-Type") == "image/png")
        let image = try ServingFixture.decode(response)
        #expect(image.hasAlpha)
        #expect(image.bitmap[0, 0].alpha == 0)
    }

    @Test func qualityChangesTheOutput() async throws {
        let fixture = try ServingFixture()
        let low = await fixture.get(ThumborRequest(signedPart: "low", filters: [.quality(10)], source: "photos/a.jpg"))
        let high = await fixture.get(ThumborRequest(signedPart: "high", filters: [.quality(95)], source: "photos/a.jpg"))
        let fallback = await fixture.get(ThumborRequest(signedPart: "default", source: "photos/a.jpg"))
        #expect(low.body.count < fallback.body.count)
        #expect(fallback.body.count < high.body.count)
    }

    @Test func maxBytesLowersTheQuality() async throws {
        let fixture = try ServingFixture()
        try ServingFixture.noisyJPEG().writeWithoutSync(to: fixture.root.appendingPathComponent("noise.jpg"))
        let full = await fixture.get(ThumborRequest(signedPart: "full", filters: [.quality(95)], source: "noise.jpg"))
        let limit = full.body.count / 3
        let capped = await fixture.get(ThumborRequest(signedPart: "capped", filters: [.quality(95), .maxBytes(limit)], source: "noise.jpg"))
        #expect(capped.status == 200)
        #expect(capped.body.count <= limit)
    }

    @Test func anAnimatedGIFStaysAnimatedAsGIFAndIsOneFrameOtherwise() async throws {
        let fixture = try ServingFixture()
        let negotiated = await fixture.get(ThumborRequest(signedPart: "n", source: "anim.gif"), headers: [("Accept", "image/webp")])
        #expect(negotiated.header("Content-Type") == "image/gif")
        #expect(try ServingFixture.decode(negotiated).frameCount == 3)
        let png = await fixture.get(ThumborRequest(signedPart: "p", filters: [.format(.png)], source: "anim.gif"))
        #expect(png.header("Content-Type") == "image/png")
        #expect(try ServingFixture.decode(png).frameCount == 1)
        let webp = await fixture.get(ThumborRequest(signedPart: "w", filters: [.format(.webp)], source: "anim.gif"))
        #expect(try ServingFixture.decode(webp).frameCount == 1)
    }

    @Test func stripFiltersAreAccepted() async throws {
        let fixture = try ServingFixture()
        let response = await fixture.get(ThumborRequest(filters: [.stripExif, .stripICC], source: "photos/a.jpg"))
        #expect(response.status == 200)
    }
}
