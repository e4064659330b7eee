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
}
