import Foundation
import ICOCoder
import Testing
import WebImageCore
import WebImageTestSupport

/// Icons and a cursor of every entry kind, made at test time (``ConformanceScript``), decoded
/// and compared pixel by pixel with Pillow's decode of the same entry.
@Suite(.onOwnThreads) struct ConformanceTests {
    static let fixtures: Task<(TemporaryFolder, [String: [String]])?, any Error> = Task {
        guard let python = await Pillow.python.value else { return nil }
        let folder = try TemporaryFolder()
        try await ChildProcess.output(of: python, ["-c", ConformanceScript.source], in: folder.url)
        var cases: [String: [String]] = [:]
        for line in String(decoding: try folder.data("manifest.txt"), as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            cases[fields[0]] = fields
        }
        return (folder, cases)
    }

    static let kinds = ["bmp24", "bmp1", "bmp8_pillow", "png_sizes", "bmp32", "bmp8", "bmp4", "png_and_bmp", "cursor"]

    @Test(arguments: kinds)
    func decodesLikePillow(_ kind: String) async throws {
        guard let (folder, cases) = try await Self.fixtures.value else {
            print("ConformanceTests: \(Pillow.missing)")
            return
        }
        guard let fields = cases[kind] else {
            print("ConformanceTests: \(kind) skipped (convert from imagemagick is not installed)")
            return
        }
        let width = Int(fields[1])!, height = Int(fields[2])!
        let data = try folder.data(kind + (kind == "cursor" ? ".cur" : ".ico"))
        let image = try ICOCoder().decode(data)
        #expect(image.pixelSize == PixelSize(width: width, height: height))
        #expect(image.format == (kind == "cursor" ? .cur : .ico))
        let reference = try Bitmap(width: width, height: height, bytes: [UInt8](try folder.data("\(kind).rgba")), hasAlpha: true)
        var worst = 0
        for y in 0..<height {
            for x in 0..<width {
                let p = image.bitmap[x, y], q = reference[x, y]
                worst = max(worst, abs(Int(p.alpha) - Int(q.alpha)))
                if q.alpha > 0 {
                    worst = max(worst, abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
                }
            }
        }
        #expect(worst == 0, "\(kind): differs by \(worst)")
    }

    @Test func theEntryNearestAThumbnailIsChosen() async throws {
        guard let (folder, _) = try await Self.fixtures.value else {
            print("ConformanceTests: \(Pillow.missing)")
            return
        }
        let data = try folder.data("png_sizes.ico")
        let entries = try ICOCoder().entries(in: data)
        #expect(entries.map(\.pixelSize.width).sorted() == [16, 32, 48, 256])
        #expect(entries.allSatisfy { $0.isPNG })
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 40, height: 40)
        // 48 is the smallest entry >= 40: decoded and resized to 40.
        let thumbnail = try ICOCoder().decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 40, height: 40))
        #expect(thumbnail.metadata.contains(.thumbnail))
        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let exact = try ICOCoder().decode(data, options: options)
        let entry32 = try #require(entries.first { $0.pixelSize.width == 32 })
        #expect(exact.bitmap == (try ICOCoder().decodeEntry(at: entry32.index, in: data)).bitmap)
        let properties = try ICOCoder().readProperties(of: data)
        #expect(properties.pixelSize == PixelSize(width: 256, height: 256) && properties.format == .ico)
    }

    @Test func aCursorHasItsHotspot() async throws {
        guard let (folder, cases) = try await Self.fixtures.value, cases["cursor"] != nil else {
            print("ConformanceTests: cursor skipped (Pillow or convert missing)")
            return
        }
        let data = try folder.data("cursor.cur")
        #expect(ICOCoder().canDecode(data))
        #expect(ImageFormat.detect(data) == .cur)
        let entries = try ICOCoder().entries(in: data)
        #expect(entries.count == 1)
        #expect(entries.first?.hotspot?.x == 5 && entries.first?.hotspot?.y == 7)
        #expect(try ICOCoder().readProperties(of: data).format == .cur)
    }
}
