import Foundation
import Testing
import SVGCoder
import WebImageCore
import WebImageTestSupport

/// A real file, not one written by these tests: SDWebImageSVGCoder's test image
/// (`../shared/testdata/sdwebimage/TestImage.svg`, a viewBox-only logo of paths), drawn as
/// `rsvg-convert` draws it at the same sizes.
@Suite(.onOwnThreads) struct SharedFileConformanceTests {
    @Test(.enabled(if: ReferenceTools.available, ReferenceTools.missing), arguments: [PixelSize(width: 512, height: 297), PixelSize(width: 131, height: 76), PixelSize(width: 64, height: 37)])
    func sdWebImagesTestImageMatchesRSVGConvert(_ size: PixelSize) async throws {
        guard SharedTestData.has("TestImage.svg") else {
            print("SharedFileConformanceTests: ../shared/testdata/sdwebimage/TestImage.svg is absent: skipped")
            return
        }
        let svg = try String(contentsOf: SharedTestData.sdWebImage("TestImage.svg"), encoding: .utf8)
        let reference = try await ReferenceTools.render(svg, width: size.width, height: size.height)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = size
        options.preserveAspectRatio = false
        let image = try SVGCoder().decode(Data(svg.utf8), options: options)
        #expect(image.pixelSize == reference.size)
        var worstVisible = 0
        for y in 0..<reference.height {
            for x in 0..<reference.width where reference[x, y].alpha >= 32 {
                worstVisible = max(worstVisible, Pixels.difference(image.bitmap[x, y], reference[x, y]))
            }
        }
        #expect(worstVisible <= 8, "worst channel difference \(worstVisible) where alpha >= 32 at \(size)")
        #expect(Pixels.compare(image.bitmap, reference).mean < 1.0)
    }
}
