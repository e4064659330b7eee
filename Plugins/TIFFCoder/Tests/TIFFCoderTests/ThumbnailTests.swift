import Foundation
import Testing
import TIFFCoder
import WebImageCore
import WebImageTestSupport

/// Thumbnails: from a reduced-resolution preview when the file has one large enough, else from
/// rows reduced as they are decoded.
@Suite(.onOwnThreads) struct ThumbnailTests {
    static func solid(_ width: Int, _ height: Int, _ color: RGBAColor) throws -> WebImage {
        WebImage(bitmap: try Bitmap(width: width, height: height, fill: color, hasAlpha: false))
    }

    /// A 400x300 red page followed by a 100x75 blue reduced-resolution image (NewSubfileType 1,
    /// set with libtiff's `tiffset`): a thumbnail that fits the preview is blue.
    @Test func aReducedResolutionPreviewIsUsedWhenLargeEnough() async throws {
        guard ChildProcess.path(of: "tiffcp") != nil, ChildProcess.path(of: "tiffset") != nil else {
            print("ThumbnailTests: skipped, tiffcp and tiffset (libtiff-tools) are not installed")
            return
        }
        let folder = try TemporaryFolder()
        try TIFFCoder().encode(try Self.solid(400, 300, RGBAColor(red: 255, green: 0, blue: 0)), as: .tiff).writeWithoutSync(to: folder.url.appendingPathComponent("full.tif"))
        try TIFFCoder().encode(try Self.solid(100, 75, RGBAColor(red: 0, green: 0, blue: 255)), as: .tiff).writeWithoutSync(to: folder.url.appendingPathComponent("preview.tif"))
        try await ChildProcess.output(of: "tiffcp", ["full.tif", "preview.tif", "both.tif"], in: folder.url)
        try await ChildProcess.output(of: "tiffset", ["-d", "1", "-s", "254", "1", "both.tif"], in: folder.url)
        let data = try folder.data("both.tif")

        let full = try TIFFCoder().decode(data)
        #expect(full.frameCount == 1, "the preview is not a page")
        #expect(full.pixelSize == PixelSize(width: 400, height: 300) && full.bitmap[10, 10].red == 255)
        #expect(try TIFFCoder().readProperties(of: data).frameCount == 1)

        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 80, height: 60)
        let small = try TIFFCoder().decode(data, options: options)
        #expect(small.pixelSize == PixelSize(width: 80, height: 60))
        #expect(small.bitmap[10, 10].blue == 255, "decoded from the preview")
        #expect(small.metadata.contains(.thumbnail))

        options.thumbnailPixelSize = PixelSize(width: 200, height: 150)
        let larger = try TIFFCoder().decode(data, options: options)
        #expect(larger.pixelSize == PixelSize(width: 200, height: 150))
        #expect(larger.bitmap[10, 10].red == 255, "the preview is too small: decoded from the page")
    }

    /// The streaming reducer's output matches a full decode resampled, within Lanczos rounding.
    @Test(arguments: [TIFFCoder.Compression.deflate, .lzw, .none])
    func aStreamedThumbnailMatchesTheFullDecodeResized(_ compression: TIFFCoder.Compression) throws {
        let source = WebImage(bitmap: TestImages.gradient(width: 480, height: 320, seed: 9, alpha: false))
        let data = try TIFFCoder(compression: compression).encode(source, as: .tiff)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 60, height: 60)
        let thumbnail = try TIFFCoder().decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 60, height: 40))
        let reference = try source.bitmap.resampled(to: PixelSize(width: 60, height: 40))
        let difference = ImageCoderContract.maxChannelDifference(thumbnail.bitmap, reference)
        #expect(difference <= 24, "differs by \(difference)")
    }

    @Test func scaleDownLimitBytesShrinksTheDecode() throws {
        let data = try TIFFCoder().encode(try Self.solid(400, 300, RGBAColor(red: 9, green: 99, blue: 199)), as: .tiff)
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 100 * 75 * 4
        let image = try TIFFCoder().decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 100, height: 75))
        #expect(image.bitmap[50, 40] == RGBAColor(red: 9, green: 99, blue: 199))
    }
}
