import Testing
import WebImageCore
@testable import WebImageServer

/// The one rule of "the smallest copy that covers the target" (``CoveringCopy``), and the
/// reduced decode sizes shrink-on-load asks each format's coder for with it.
@Suite struct CoveringCopyTests {
    @Test func halvingsStopAtTheLastCopyThatCoversTheTargetWithTheMargin() {
        let photo = PixelSize(width: 3000, height: 2000)
        // Pillow's draft (margin 1): 3000x2000 >> 2 = 750x500 covers 512x342, >> 3 does not.
        #expect(CoveringCopy.halvings(of: photo, covering: PixelSize(width: 512, height: 342), margin: CoveringCopy.draft, maximum: 3) == 2)
        #expect(CoveringCopy.halvings(of: photo, covering: PixelSize(width: 100, height: 50), margin: CoveringCopy.draft, maximum: 3) == 3)
        // The pyramid's gap (margin 3): 1500 < 3 * 512, so no halving.
        #expect(CoveringCopy.halvings(of: photo, covering: PixelSize(width: 512, height: 341), margin: CoveringCopy.pyramidGap, maximum: 16) == nil)
        #expect(CoveringCopy.halvings(of: photo, covering: PixelSize(width: 250, height: 166), margin: CoveringCopy.pyramidGap, maximum: 16) == 2)
        #expect(CoveringCopy.halvings(of: photo, covering: PixelSize(width: 0, height: 0), margin: 1, maximum: 3) == nil)
    }

    @Test func theSmallestCandidateThatCoversIsChosen() {
        let candidates = [PixelSize(width: 320, height: 240), PixelSize(width: 160, height: 120), PixelSize(width: 640, height: 480)]
        #expect(CoveringCopy.smallest(of: candidates, covering: PixelSize(width: 100, height: 75), margin: 2) == PixelSize(width: 320, height: 240))
        #expect(CoveringCopy.smallest(of: candidates, covering: PixelSize(width: 80, height: 60), margin: 2) == PixelSize(width: 160, height: 120))
        #expect(CoveringCopy.smallest(of: candidates, covering: PixelSize(width: 400, height: 300), margin: 2) == nil)
    }

    @Test func shrinkOnLoadAsksEachFormatForItsCheapCopy() {
        let minimum = PixelSize(width: 200, height: 150)
        let jpeg = ImageProperties(format: .jpeg, pixelSize: PixelSize(width: 1600, height: 1200), hasAlpha: false)
        #expect(ShrinkOnLoad.decodeSize(for: jpeg, minimum: minimum) == PixelSize(width: 200, height: 150))
        // EXIF orientations 5...8: the stored (sideways) size is reduced; the answer is upright.
        let sideways = ImageProperties(format: .jpeg, pixelSize: PixelSize(width: 1200, height: 1600), orientation: 6, hasAlpha: false)
        #expect(ShrinkOnLoad.decodeSize(for: sideways, minimum: minimum) == PixelSize(width: 200, height: 150))
        let webp = ImageProperties(format: .webp, pixelSize: PixelSize(width: 1600, height: 1200), hasAlpha: false)
        #expect(ShrinkOnLoad.decodeSize(for: webp, minimum: minimum) == PixelSize(width: 400, height: 300))
        // Power-of-two scales only (one copy serves many requests): twice 210x158 is over 1/4's 400x300.
        #expect(ShrinkOnLoad.decodeSize(for: webp, minimum: PixelSize(width: 210, height: 158)) == PixelSize(width: 800, height: 600))
        let oddWebP = ImageProperties(format: .webp, pixelSize: PixelSize(width: 1601, height: 1201), hasAlpha: false)
        #expect(ShrinkOnLoad.decodeSize(for: oddWebP, minimum: minimum) == PixelSize(width: 401, height: 301))
        var heif = ImageProperties(format: .heic, pixelSize: PixelSize(width: 1600, height: 1200), hasAlpha: false)
        #expect(ShrinkOnLoad.decodeSize(for: heif, minimum: minimum) == nil, "no stored thumbnail: whole")
        heif.embeddedThumbnailSizes = [PixelSize(width: 320, height: 240), PixelSize(width: 800, height: 600)]
        #expect(ShrinkOnLoad.decodeSize(for: heif, minimum: minimum) == PixelSize(width: 800, height: 600))
        #expect(ShrinkOnLoad.decodeSize(for: heif, minimum: PixelSize(width: 100, height: 75)) == PixelSize(width: 320, height: 240))
        let png = ImageProperties(format: .png, pixelSize: PixelSize(width: 1600, height: 1200), hasAlpha: false)
        #expect(ShrinkOnLoad.decodeSize(for: png, minimum: minimum) == PixelSize(width: 400, height: 300), "block means at 1/4")
        #expect(ShrinkOnLoad.boxFactor(of: png.pixelSize, reducedTo: PixelSize(width: 400, height: 300)) == 4)
        // Only a factor that divides both sides (a partial block would move the picture): 1202
        // rows take 1/2, not 1/4; an odd side takes none.
        let evenPNG = ImageProperties(format: .png, pixelSize: PixelSize(width: 1600, height: 1202), hasAlpha: true)
        #expect(ShrinkOnLoad.decodeSize(for: evenPNG, minimum: minimum) == PixelSize(width: 800, height: 601))
        #expect(ShrinkOnLoad.boxFactor(of: evenPNG.pixelSize, reducedTo: PixelSize(width: 800, height: 601)) == 2)
        let oddPNG = ImageProperties(format: .png, pixelSize: PixelSize(width: 1601, height: 1201), hasAlpha: true)
        #expect(ShrinkOnLoad.decodeSize(for: oddPNG, minimum: minimum) == nil)
        #expect(ShrinkOnLoad.boxFactor(of: oddPNG.pixelSize, reducedTo: PixelSize(width: 400, height: 300)) == nil)
        let gif = ImageProperties(format: .gif, pixelSize: PixelSize(width: 1600, height: 1200), hasAlpha: false)
        #expect(ShrinkOnLoad.decodeSize(for: gif, minimum: minimum) == nil)
    }
}
