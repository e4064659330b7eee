import Foundation
import HEIFCoder
import Testing
import WebImageTestSupport
import WebImageCore

/// The file's transformations are applied: `irot` (rotation), `imir` (mirror), `clap` (crop).
/// The files are written by libheif itself (its encoder writes `irot`/`imir` for an orientation
/// and a `clap` box for odd sides when asked to).
@Suite(.onOwnThreads) struct TransformationTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)
    static let green = RGBAColor(red: 0, green: 255, blue: 0, alpha: 255)
    static let blue = RGBAColor(red: 0, green: 0, blue: 255, alpha: 255)
    static let white = RGBAColor(red: 255, green: 255, blue: 255, alpha: 255)

    /// The colors at the four quadrant centres (top left, top right, bottom left, bottom right).
    static func corners(_ image: WebImage) -> [RGBAColor] {
        let w = image.pixelSize.width, h = image.pixelSize.height
        return [image.bitmap[w / 4, h / 4], image.bitmap[3 * w / 4, h / 4], image.bitmap[w / 4, 3 * h / 4], image.bitmap[3 * w / 4, 3 * h / 4]]
    }

    static func expectCorners(_ image: WebImage, _ expected: [RGBAColor], sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, (color, want)) in zip(corners(image), expected).enumerated() {
            #expect(Pixels.near(color, want), "quadrant \(index): \(color), expected \(want)", sourceLocation: sourceLocation)
        }
    }

    @Test func noTransformation() throws {
        let image = try HEIFCoder().decode(HEIFFileMaker.heic(Pixels.quadrants(width: 64, height: 32)))
        #expect(image.pixelSize == PixelSize(width: 64, height: 32))
        Self.expectCorners(image, [Self.red, Self.green, Self.blue, Self.white])
    }

    /// Orientation 6 (rotate 90° clockwise): 64x32 is shown as 32x64, the top left quadrant
    /// (red) at the top right.
    @Test func rotation() throws {
        let data = try HEIFFileMaker.heic(Pixels.quadrants(width: 64, height: 32), orientation: 6)
        let image = try HEIFCoder().decode(data)
        #expect(image.pixelSize == PixelSize(width: 32, height: 64))
        Self.expectCorners(image, [Self.blue, Self.red, Self.white, Self.green])
    }

    /// Orientation 2 (mirror left-right).
    @Test func mirror() throws {
        let image = try HEIFCoder().decode(HEIFFileMaker.heic(Pixels.quadrants(width: 64, height: 32), orientation: 2))
        #expect(image.pixelSize == PixelSize(width: 64, height: 32))
        Self.expectCorners(image, [Self.green, Self.red, Self.white, Self.blue])
    }

    /// `applyOrientation = false` does not turn HEIF's transformations off (they define the
    /// image in HEIF, unlike EXIF's orientation tag).
    @Test func transformationsAreAppliedWhateverApplyOrientationSays() throws {
        var options = ImageDecodeOptions()
        options.applyOrientation = false
        let image = try HEIFCoder().decode(HEIFFileMaker.heic(Pixels.quadrants(width: 64, height: 32), orientation: 6), options: options)
        #expect(image.pixelSize == PixelSize(width: 32, height: 64))
    }

    /// Odd sides with a `clap` box: the coded picture is 66x34 (padded), the image 65x33.
    @Test func cleanApertureCrop() throws {
        let source = Pixels.quadrants(width: 65, height: 33)
        let data = try HEIFFileMaker.heic(source, clap: true)
        #expect(data.range(of: Data("clap".utf8)) != nil, "the file has a clap box")
        let image = try HEIFCoder().decode(data)
        #expect(image.pixelSize == PixelSize(width: 65, height: 33))
        #expect(Pixels.near(image.bitmap[64, 32], Self.white), "bottom right pixel \(image.bitmap[64, 32])")
        #expect(Pixels.near(image.bitmap[0, 0], Self.red))
    }

    /// A rotated image's thumbnail has the displayed (rotated) aspect ratio.
    @Test func rotatedThumbnail() throws {
        let data = try HEIFFileMaker.heic(Pixels.quadrants(width: 64, height: 32), orientation: 8)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let image = try HEIFCoder().decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 8, height: 16))
        // Orientation 8 (rotate 270° clockwise): the top left quadrant (red) goes bottom left.
        Self.expectCorners(image, [Self.green, Self.white, Self.red, Self.blue])
    }
}
