import Foundation
import SVGCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// The size a document is drawn at: the request's thumbnail size (never the document's size
/// then resampled), the aspect ratio kept as the raster coders keep it, the pixel limit.
@Suite(.onOwnThreads) struct SizeTests {
    static func decode(_ svg: String, thumbnail: PixelSize? = nil, preserve: Bool = true, maxPixels: Int? = nil, scaleDownBytes: Int? = nil) throws -> WebImage {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = thumbnail
        options.preserveAspectRatio = preserve
        if let maxPixels { options.maxPixelCount = maxPixels }
        options.scaleDownLimitBytes = scaleDownBytes
        return try SVGCoder().decode(Data(svg.utf8), options: options)
    }

    @Test func intrinsicSize() throws {
        let image = try Self.decode(SVGSamples.shapes)
        #expect(image.pixelSize == PixelSize(width: 120, height: 90))
        #expect(image.format == .svg)
        #expect(image.metadata.contains(.vector) && image.metadata.contains(.decoded))
    }

    /// A 64x64 request of a 4000x4000 icon is drawn at 64x64, fast (a 4000x4000 surface would
    /// take 64 MB and most of a second).
    @Test func iconRequestIsDrawnAtItsSize() throws {
        let start = ContinuousClock.now
        let image = try Self.decode(SVGSamples.large, thumbnail: PixelSize(width: 64, height: 64))
        let elapsed = ContinuousClock.now - start
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(image.metadata.contains(.thumbnail))
        #expect(elapsed < .seconds(2), "\(elapsed)")
        // The red disc fills the middle, the white bar crosses it.
        #expect(Pixels.near(image.bitmap[32, 10], RGBAColor(red: 204, green: 34, blue: 0, alpha: 255), tolerance: 2))
        #expect(Pixels.near(image.bitmap[32, 32], RGBAColor(red: 255, green: 255, blue: 255, alpha: 255), tolerance: 2))
    }

    /// The raster coders' rule: the constraining side is the request's, the other rounded.
    @Test(arguments: [
        (PixelSize(width: 60, height: 60), PixelSize(width: 60, height: 45)),
        (PixelSize(width: 1000, height: 30), PixelSize(width: 40, height: 30)),
        (PixelSize(width: 37, height: 1000), PixelSize(width: 37, height: 28)),
        (PixelSize(width: 240, height: 240), PixelSize(width: 240, height: 180)),  // larger than the document: drawn larger
    ])
    func thumbnailKeepsTheAspectRatio(_ request: PixelSize, _ expected: PixelSize) throws {
        let image = try Self.decode(SVGSamples.shapes, thumbnail: request)
        #expect(image.pixelSize == expected)
        #expect(image.metadata.contains(.thumbnail))
    }

    @Test func thumbnailWithoutAspectRatioIsExact() throws {
        #expect(try Self.decode(SVGSamples.shapes, thumbnail: PixelSize(width: 50, height: 70), preserve: false).pixelSize == PixelSize(width: 50, height: 70))
    }

    /// A size over the pixel limit is drawn smaller (aspect kept), not refused.
    @Test func pixelLimitCapsTheSize() throws {
        let image = try Self.decode(SVGSamples.large, maxPixels: 10_000)
        #expect(image.pixelSize == PixelSize(width: 100, height: 100))
        let huge = #"<svg xmlns="http://www.w3.org/2000/svg" width="1000000" height="500000"><rect width="100%" height="100%" fill="red"/></svg>"#
        // 2 megapixels: the default limit (50) would be a second or more of drawing.
        let capped = try Self.decode(huge, maxPixels: 2_000_000)
        #expect(capped.pixelSize == PixelSize(width: 2000, height: 1000))
        #expect(try SVGCoder().readProperties(of: Data(huge.utf8)).pixelSize == PixelSize(width: 10000, height: 5000), "the default limit's size")
    }

    @Test func scaleDownBudget() throws {
        let image = try Self.decode(SVGSamples.large, scaleDownBytes: 4 * 100 * 100)
        #expect(image.pixelSize == PixelSize(width: 100, height: 100))
        #expect(image.metadata.contains(.thumbnail))
    }

    @Test func headerReaderReportsTheDrawnSize() throws {
        let properties = try SVGCoder().readProperties(of: Data(SVGSamples.viewBoxOnly.utf8))
        #expect(properties.format == .svg)
        #expect(properties.pixelSize == PixelSize(width: 512, height: 256))
        #expect(try SVGCoder().readProperties(of: Data(SVGSamples.large.utf8)).pixelSize == PixelSize(width: 4000, height: 4000))
    }

    @Test func encodingIsRefused() throws {
        #expect(!SVGCoder().canEncode(to: .svg))
        #expect(!SVGCoder().canEncode(to: .png))
        let error = try #require(throws: WebImageError.self) { try SVGCoder().encode(WebImage(bitmap: SVGSamples.gridPixels), as: .svg) }
        #expect(error.code == .unsupportedFormat)
    }
}
