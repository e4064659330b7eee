import Foundation
import Testing
import TIFFCoder
import WebImageCore
import WebImageTestSupport

/// TIFFs of every kind the coder reads, made at test time by Pillow (tiled and separate-plane
/// files by libtiff's `tiffcp`, 16-bit RGB and associated alpha by ImageMagick's `convert`),
/// decoded and compared pixel by pixel with the reference the script writes (see
/// ``ConformanceScript``). Skips, saying why, without Pillow; a kind whose tool is missing is
/// skipped with the tool's name.
@Suite(.onOwnThreads) struct ConformanceTests {
    /// The fixtures, made once for the suite.
    static let fixtures: Task<(TemporaryFolder, [String: [String]])?, any Error> = Task {
        guard let python = await Pillow.python.value else { return nil }
        let folder = try TemporaryFolder()
        try await ChildProcess.output(of: python, ["-c", ConformanceScript.source], in: folder.url)
        let manifest = String(decoding: try folder.data("manifest.txt"), as: UTF8.self)
        var cases: [String: [String]] = [:]
        for line in manifest.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            cases[fields[0]] = fields
        }
        return (folder, cases)
    }

    static let kinds = [
        "rgb8_deflate", "rgb8_lzw", "rgb8_none", "rgb8_packbits", "rgba8_unassociated", "grey8", "greyalpha8",
        "bilevel1", "bilevel1_g4", "palette8", "grey16", "jpeg_ycbcr", "cmyk8", "cmyk8_icc",
        "orientation2", "orientation3", "orientation4", "orientation5", "orientation6", "orientation7", "orientation8",
        "pages3", "tiled_rgba8", "tiled_rgb8", "planar_rgb8", "planar_rgba8", "strips3_rgb8",
        "rgb16", "associated_rgba8", "associated_rgba16",
    ]

    /// Reads `name.rgba` as a bitmap of `width` x `height`.
    static func reference(_ folder: TemporaryFolder, _ name: String, width: Int, height: Int) throws -> Bitmap {
        try Bitmap(width: width, height: height, bytes: [UInt8](try folder.data(name)), hasAlpha: true)
    }

    /// The largest difference, ignoring the colour of fully transparent pixels; with
    /// `premultiplied`, the colour of a pixel of alpha a may differ by 255 / a more (libtiff's
    /// RGBA reader premultiplies, and dividing back loses that much).
    static func difference(_ decoded: Bitmap, _ expected: Bitmap, premultiplied: Bool) -> Int {
        var worst = 0
        for y in 0..<expected.height {
            for x in 0..<expected.width {
                let p = decoded[x, y], q = expected[x, y]
                worst = max(worst, abs(Int(p.alpha) - Int(q.alpha)))
                guard q.alpha > 0 else { continue }
                let slack = premultiplied && q.alpha < 255 ? (255 + Int(q.alpha) - 1) / Int(q.alpha) : 0
                let colour = max(abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
                worst = max(worst, colour - slack)
            }
        }
        return worst
    }

    @Test(arguments: kinds)
    func decodesLikeTheReference(_ kind: String) async throws {
        guard let (folder, cases) = try await Self.fixtures.value else {
            print("ConformanceTests: \(Pillow.missing)")
            return
        }
        guard let fields = cases[kind] else {
            print("ConformanceTests: \(kind) skipped (tiffcp from libtiff-tools, convert from imagemagick or ghostscript's default_cmyk.icc from libgs-common is not installed)")
            return
        }
        let width = Int(fields[1])!, height = Int(fields[2])!, pages = Int(fields[3])!, tolerance = Int(fields[4])!
        let image = try TIFFCoder().decode(try folder.data("\(kind).tif"))
        #expect(image.pixelSize == PixelSize(width: width, height: height), "\(kind): \(image.pixelSize)")
        #expect(image.frameCount == pages)
        #expect(image.format == .tiff)
        let premultiplied = kind.hasPrefix("tiled_rgba") || kind.hasPrefix("planar_rgba") || kind.hasPrefix("associated")
        if fields[5] == "cmyk" {
            // The plain formula over the stored inks (no profile): R = (255 - C)(255 - K) / 255.
            let inks = [UInt8](try folder.data("cmyk8.cmyk"))
            var expected = [UInt8](repeating: 255, count: width * height * 4)
            for i in 0..<(width * height) {
                let k = 255 - Int(inks[i * 4 + 3])
                for c in 0..<3 { expected[i * 4 + c] = UInt8(((255 - Int(inks[i * 4 + c])) * k + 127) / 255) }
            }
            let reference = try Bitmap(width: width, height: height, bytes: expected, hasAlpha: false)
            let difference = Self.difference(image.bitmap, reference, premultiplied: false)
            #expect(difference <= tolerance, "\(kind): differs by \(difference)")
            return
        }
        if pages > 1 {
            for index in 0..<pages {
                let reference = try Self.reference(folder, "\(kind).\(index).rgba", width: width, height: height)
                let difference = Self.difference(try image.frame(at: index).bitmap, reference, premultiplied: premultiplied)
                #expect(difference <= tolerance, "\(kind) page \(index): differs by \(difference)")
            }
            return
        }
        let reference = try Self.reference(folder, "\(kind).rgba", width: width, height: height)
        let difference = Self.difference(image.bitmap, reference, premultiplied: premultiplied)
        #expect(difference <= tolerance, "\(kind): differs by \(difference)")
        if fields[5] == "oriented" {
            #expect(image.metadata.contains(.orientationApplied))
        }
        if fields[5] == "icc" {
            #expect(image.metadata.contains(.colorConverted))
        }
    }

    @Test func pageCountIsInTheProperties() async throws {
        guard let (folder, _) = try await Self.fixtures.value else {
            print("ConformanceTests: \(Pillow.missing)")
            return
        }
        let properties = try TIFFCoder().readProperties(of: try folder.data("pages3.tif"))
        #expect(properties.frameCount == 3)
        #expect(properties.pixelSize == PixelSize(width: 61, height: 47))
        #expect(properties.format == .tiff)
        let oriented = try TIFFCoder().readProperties(of: try folder.data("orientation6.tif"))
        #expect(oriented.orientation == 6 && oriented.orientedPixelSize == PixelSize(width: 47, height: 61))
        var first = ImageDecodeOptions()
        first.firstFrameOnly = true
        #expect(try TIFFCoder().decode(try folder.data("pages3.tif"), options: first).frameCount == 1)
    }

    @Test func thumbnailsOfEveryKindAreBounded() async throws {
        guard let (folder, cases) = try await Self.fixtures.value else {
            print("ConformanceTests: \(Pillow.missing)")
            return
        }
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 12, height: 12)
        for kind in cases.keys.sorted() {
            let image = try TIFFCoder().decode(try folder.data("\(kind).tif"), options: options)
            #expect(image.pixelSize.width <= 12 && image.pixelSize.height <= 12, "\(kind): \(image.pixelSize)")
            #expect(image.metadata.contains(.thumbnail), "\(kind)")
        }
    }
}
