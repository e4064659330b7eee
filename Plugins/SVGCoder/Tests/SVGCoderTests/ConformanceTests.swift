import Foundation
import SVGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The coder's pixels against librsvg's own renderer, `rsvg-convert`, at the same size: same
/// library, so the only differences are the premultiplied-to-straight rounding (a level or two
/// where alpha is small, bounded by the mean).
@Suite(.onOwnThreads) struct ConformanceTests {
    static let cases: [(name: String, svg: String, width: Int, height: Int)] = [
        ("grid at its size", SVGSamples.grid, 37, 23),
        ("shapes at their size", SVGSamples.shapes, 120, 90),
        ("shapes at 2x", SVGSamples.shapes, 240, 180),
        ("shapes squeezed", SVGSamples.shapes, 60, 90),
        ("viewBox only", SVGSamples.viewBoxOnly, 512, 256),
        ("large icon at 64", SVGSamples.large, 64, 64),
    ]

    @Test(.enabled(if: ReferenceTools.available, ReferenceTools.missing), arguments: cases.indices)
    func matchesRSVGConvert(_ index: Int) async throws {
        let sample = Self.cases[index]
        let reference = try await ReferenceTools.render(sample.svg, width: sample.width, height: sample.height)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: sample.width, height: sample.height)
        options.preserveAspectRatio = false
        let image = try SVGCoder().decode(Data(sample.svg.utf8), options: options)
        #expect(image.pixelSize == reference.size, "\(sample.name)")
        let difference = Pixels.compare(image.bitmap, reference)
        // Straight alpha on both sides; where alpha is tiny, one level of premultiplied colour is
        // many levels of straight colour, so colour is compared where alpha is large enough.
        var worstVisible = 0
        for y in 0..<reference.height {
            for x in 0..<reference.width where reference[x, y].alpha >= 32 {
                worstVisible = max(worstVisible, Pixels.difference(image.bitmap[x, y], reference[x, y]))
            }
        }
        #expect(worstVisible <= 8, "\(sample.name): worst channel difference \(worstVisible) where alpha >= 32")
        #expect(difference.mean < 1.0, "\(sample.name): mean difference \(difference.mean)")
    }

    /// A document without a size is drawn at 512 on its long side, as `rsvg-convert -w 512`
    /// would draw it.
    @Test func viewBoxOnlyDocumentsGetTheDefaultSize() throws {
        let image = try SVGCoder().decode(Data(SVGSamples.viewBoxOnly.utf8))
        #expect(image.pixelSize == PixelSize(width: 512, height: 256))
        #expect(image.metadata.contains(.vector))
        #expect(!image.metadata.contains(.thumbnail))
        let smaller = try SVGCoder(defaultLongSide: 100).decode(Data(SVGSamples.viewBoxOnly.utf8))
        #expect(smaller.pixelSize == PixelSize(width: 100, height: 50))
    }
}
