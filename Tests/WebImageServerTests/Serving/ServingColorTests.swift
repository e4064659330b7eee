import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// `webimage serve`'s pipeline answers a tagged source in sRGB (issue 31), as imgproxy and
/// libvips' thumbnail do: the output carries no profile and its numbers are sRGB.
@Suite struct ServingColorTests {
    @Test(arguments: ["jpeg", "png", "webp"])
    func anAdobeRGBSourceIsServedInSRGB(output: String) async throws {
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)
        let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), ColorFixtures.adobeRGB)
        let fixture = try ServingFixture(routes: ["/adobe.png": .data(png, contentType: "image/png")])
        let format: ThumborOutputFormat = output == "jpeg" ? .jpeg : output == "png" ? .png : .webp
        let response = await fixture.get(ThumborRequest(filters: [.format(format), .quality(100)], source: fixture.originSource("/adobe.png")))
        #expect(response.status == 200)
        let served = try ServingFixture.decode(response)
        #expect(!served.metadata.contains(.colorConverted), "the served file is untagged sRGB")
        let limit = output == "jpeg" ? 1.5 : 1.0
        #expect(ColorFixtures.meanDeltaE(served.bitmap, ColorFixtures.photo) < limit)
    }

    /// `--keep-profile` (``ColorProfileHandling/keep``), as thumbor does: the numbers stay and
    /// the profile is embedded in every format that takes one; `strip_icc()` drops it; the two
    /// answers never share a result-cache entry.
    @Test(arguments: ["jpeg", "png", "webp"])
    func aKeepingServerEmbedsTheProfileAndStripICCDropsIt(output: String) async throws {
        let stored = ColorFixtures.intoSpace(ColorFixtures.photo, ColorFixtures.adobeRGB)
        let png = ColorFixtures.tagPNG(try PNGCoder().encode(WebImage(bitmap: stored), as: .png), ColorFixtures.adobeRGB)
        let fixture = try ServingFixture(routes: ["/adobe.png": .data(png, contentType: "image/png")]) { $0.colorProfileHandling = .keep }
        let format: ThumborOutputFormat = output == "jpeg" ? .jpeg : output == "png" ? .png : .webp
        var keep = ImageDecodeOptions()
        keep.colorProfileHandling = .keep

        let source = fixture.originSource("/adobe.png")
        let response = await fixture.get(path: "/unsafe/filters:format(\(output)):quality(100)/\(source)")
        #expect(response.status == 200)
        let tagged = try ServingFixture.coders.decode(response.body, options: keep)
        #expect(tagged.colorProfile?.data == ColorFixtures.adobeRGB)
        #expect(ColorFixtures.meanDeltaE(tagged.bitmap, stored) < (output == "jpeg" ? 1.5 : 0.5), "the numbers are the source's")
        let shown = try ServingFixture.decode(response)
        #expect(ColorFixtures.meanDeltaE(shown.bitmap, ColorFixtures.photo) < (output == "jpeg" ? 1.5 : 1.0), "a colour-managed viewer sees the photo")

        let stripped = await fixture.get(path: "/unsafe/filters:format(\(output)):quality(100):strip_icc()/\(source)")
        #expect(stripped.status == 200)
        #expect(try ServingFixture.coders.decode(stripped.body, options: keep).colorProfile == nil)

        let plain = ThumborRequest(filters: [.format(format)], source: source)
        #expect(ImageServer.resultKey(for: plain, choice: .explicit(.png)) != ImageServer.resultKey(for: plain, choice: .explicit(.png), colorProfileHandling: .keep))
    }
}
