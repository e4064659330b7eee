import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// The README's "Differences from thumbor", each against what thumbor 7.8 itself answered
/// (`Tests/Fixtures/thumbor/cases/differences.txt`): thumbor's answer is recorded, and this
/// server's deliberate other answer is checked.
@Suite struct ThumborDifferencesTests {
    /// `orig` with `0`, `no_upscale()` or `fill(...)`: thumbor answers `500`; this server the
    /// size thumbor's own rules give (the source's 96x64, or a 100 px tall canvas).
    @Test(arguments: [("diff-orig-zero", PixelSize(width: 96, height: 64)), ("diff-orig-noupscale", PixelSize(width: 96, height: 64)), ("diff-orig-fill", PixelSize(width: 96, height: 100))])
    func origThatThumborFailsIsServed(_ name: String, _ size: PixelSize) async throws {
        let reference = try #require(ThumborReference.all[name], "recorded by scripts/thumbor-fixtures")
        #expect(reference.status == 500, "thumbor 7.8 fails \(reference.path)")
        let outcome = await ThumborReference.serve(reference, with: try ThumborReference.makeFixture())
        #expect(outcome.status == 200)
        #expect(outcome.image?.pixelSize == size)
    }

    /// Transparency in JPEG output: thumbor shows the colour stored under transparent pixels;
    /// this server flattens them on white.
    @Test func transparencyInJPEGOutputIsFlattenedOnWhite() async throws {
        let reference = try #require(ThumborReference.all["diff-alpha-jpeg"])
        let thumbor = try ThumborReference.expectedImage(reference)
        let outcome = await ThumborReference.serve(reference, with: try ThumborReference.makeFixture())
        let image = try #require(outcome.image)
        #expect(outcome.type == "image/jpeg")
        // The corner is transparent in the source (the ellipse mask leaves it out).
        #expect(Pixels.difference(image.bitmap[0, 0], .white, includeAlpha: false) <= 8)
        #expect(Pixels.difference(thumbor.bitmap[0, 0], .white, includeAlpha: false) > 64, "thumbor shows the hidden colour")
        // Inside the mask both agree.
        #expect(Pixels.difference(image.bitmap[32, 24], thumbor.bitmap[32, 24], includeAlpha: false) <= 16)
    }
}
