import Foundation
import ICOCoder
import SwiftWebImage
import Testing
import WebImageCore
import WebImageTestSupport

/// Icons ImageMagick writes, of every entry kind it writes (PNG; 32-bit BMP; 8-, 4- and 1-bit
/// BMP with the AND mask carrying the transparency, and without any; several sizes in one file;
/// a cursor), each entry decoded by ICOCoder and by ImageMagick itself (`convert 'file.ico[n]'
/// rgba:`) and compared exactly. ImageMagick 6 never writes 24-bit entries (it writes 32-bit
/// for true colour), so the 24-bit icon with an AND mask is written here byte by byte, and
/// ImageMagick's decode is still the reference. Each file's entries are checked to be of the
/// kind the case names, so the table is the coverage. Skips without `convert`.
@Suite(.onOwnThreads) struct ImageMagickConformanceTests {
    /// One file: its name, what `convert` is given after the input, the input's side, and the
    /// entries (side, PNG or BMP bit depth) it must hold.
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let arguments: [String]
        let side: Int
        let entries: [(side: Int, kind: String)]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "png.ico", arguments: [], side: 256, entries: [(256, "png")]),
        Case(name: "bmp32.ico", arguments: [], side: 32, entries: [(32, "bmp32")]),
        Case(name: "bmp8-mask.ico", arguments: ["-colors", "200"], side: 32, entries: [(32, "bmp8")]),
        Case(name: "bmp4-mask.ico", arguments: ["-colors", "16"], side: 32, entries: [(32, "bmp4")]),
        Case(name: "bmp1-mask.ico", arguments: ["-colors", "2"], side: 32, entries: [(32, "bmp1")]),
        Case(name: "bmp8-opaque.ico", arguments: ["-alpha", "off", "-colors", "200"], side: 32, entries: [(32, "bmp8")]),
        Case(name: "bmp4-opaque.ico", arguments: ["-alpha", "off", "-colors", "16"], side: 32, entries: [(32, "bmp4")]),
        Case(name: "bmp1-opaque.ico", arguments: ["-alpha", "off", "-colors", "2"], side: 32, entries: [(32, "bmp1")]),
        Case(name: "sizes.ico", arguments: ["-define", "icon:auto-resize=256,48,32,16"], side: 256,
             entries: [(256, "png"), (48, "bmp32"), (32, "bmp32"), (16, "bmp32")]),
        // ImageMagick 6 writes a .cur with an icon's header: made a cursor below (type 2, hotspot (5, 7)).
        Case(name: "cursor.cur", arguments: [], side: 32, entries: [(32, "bmp32")]),
    ]

    /// A picture with colour ramps, a transparent outside of a circle and a half-transparent band.
    static func picture(side: Int) -> Bitmap {
        Pixels.make(width: side, height: side) { x, y in
            let dx = Double(x) - Double(side) / 2 + 0.5, dy = Double(y) - Double(side) / 2 + 0.5
            let inside = dx * dx + dy * dy <= Double(side * side) / 4
            let alpha: UInt8 = !inside ? 0 : (y * 8 / side == 3 ? 128 : 255)
            return RGBAColor(red: UInt8(x * 255 / max(1, side - 1)), green: UInt8(y * 255 / max(1, side - 1)), blue: UInt8((x * y) % 256), alpha: alpha)
        }
    }

    /// What the entry is: "png" or "bmp<bit depth>".
    static func kind(_ entry: ICOCoder.Entry) -> String { entry.isPNG ? "png" : "bmp\(entry.bitDepth)" }

    @Test(.enabled(if: ChildProcess.path(of: "convert") != nil, "convert (Debian: imagemagick) is not installed: skipped"), arguments: cases)
    func everyEntryDecodesLikeImageMagick(_ testCase: Case) async throws {
        let folder = try TemporaryFolder(prefix: "ico-imagemagick")
        try PNGCoder().encode(WebImage(bitmap: Self.picture(side: testCase.side)), as: .png).writeWithoutSync(to: URL(fileURLWithPath: folder.path("in.png")))
        let output = testCase.name.hasSuffix(".cur") ? "made.ico" : testCase.name
        try await ChildProcess.output(of: "convert", ["in.png"] + testCase.arguments + [output], in: folder.url)
        if testCase.name.hasSuffix(".cur") {
            var cursor = [UInt8](try folder.data(output))
            cursor[2] = 2
            cursor.replaceSubrange(10..<14, with: [5, 0, 7, 0])
            try Data(cursor).writeWithoutSync(to: URL(fileURLWithPath: folder.path(testCase.name)))
        }
        try await Self.compareEveryEntry(of: testCase.name, in: folder, expecting: testCase.entries)
    }

    @Test(.enabled(if: ChildProcess.path(of: "convert") != nil, "convert (Debian: imagemagick) is not installed: skipped"))
    func aTwentyFourBitEntryWithAnANDMaskDecodesLikeImageMagick() async throws {
        let folder = try TemporaryFolder(prefix: "ico-imagemagick")
        let picture = Self.picture(side: 30)  // 90 bytes a row: padded to 92; the mask's rows to 4 bytes
        try Self.twentyFourBitIcon(picture).writeWithoutSync(to: URL(fileURLWithPath: folder.path("bmp24-mask.ico")))
        try await Self.compareEveryEntry(of: "bmp24-mask.ico", in: folder, expecting: [(30, "bmp24")])
    }

    /// Checks the entries of `name` against `expected`, then decodes each with ICOCoder and with
    /// ImageMagick and compares them (exactly; the colour of fully transparent pixels aside).
    static func compareEveryEntry(of name: String, in folder: TemporaryFolder, expecting expected: [(side: Int, kind: String)]) async throws {
        let data = try folder.data(name)
        let entries = try ICOCoder().entries(in: data)
        #expect(entries.map { "\($0.pixelSize.width)x\($0.pixelSize.height) \(kind($0))" } == expected.map { "\($0.side)x\($0.side) \($0.kind)" }, "\(name)")
        for entry in entries {
            let raw = "entry\(entry.index).rgba"
            try await ChildProcess.output(of: "convert", ["\(name)[\(entry.index)]", "-depth", "8", "rgba:\(raw)"], in: folder.url)
            let reference = try Bitmap(width: entry.pixelSize.width, height: entry.pixelSize.height, bytes: [UInt8](try folder.data(raw)), hasAlpha: true)
            let decoded = try ICOCoder().decodeEntry(at: entry.index, in: data).bitmap
            #expect(decoded.size == reference.size, "\(name)[\(entry.index)]")
            var worst = 0, transparent = 0
            for y in 0..<reference.height {
                for x in 0..<reference.width {
                    let p = decoded[x, y], q = reference[x, y]
                    worst = max(worst, abs(Int(p.alpha) - Int(q.alpha)))
                    if q.alpha > 0 { worst = max(worst, Pixels.difference(p, q, includeAlpha: false)) } else { transparent += 1 }
                }
            }
            #expect(worst == 0, "\(name)[\(entry.index)] (\(kind(entry))): differs from ImageMagick by \(worst)")
            // The picture's outside is transparent in every kind that carries transparency.
            if !name.contains("opaque") { #expect(transparent > 0, "\(name)[\(entry.index)]: ImageMagick shows no transparency") }
        }
        let largest = try #require(entries.max { ($0.pixelSize.pixelCount ?? 0) < ($1.pixelSize.pixelCount ?? 0) })
        #expect(try ICOCoder().decode(data).bitmap == (try ICOCoder().decodeEntry(at: largest.index, in: data)).bitmap, "\(name): the largest entry by default")
    }

    /// An icon of one 24-bit BMP entry: the colour rows bottom-up (BGR, padded to 4 bytes), then
    /// the AND mask (1 bit a pixel, set where `picture` is transparent, rows padded to 4 bytes).
    static func twentyFourBitIcon(_ picture: Bitmap) -> Data {
        let width = picture.width, height = picture.height
        let colourRow = (width * 3 + 3) / 4 * 4, maskRow = ((width + 31) / 32) * 4
        var body: [UInt8] = []
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        body += le32(40) + le32(width) + le32(height * 2) + le16(1) + le16(24) + le32(0) + le32((colourRow + maskRow) * height) + le32(0) + le32(0) + le32(0) + le32(0)
        for y in (0..<height).reversed() {
            var row: [UInt8] = []
            for x in 0..<width {
                let c = picture[x, y]
                row += [c.blue, c.green, c.red]
            }
            body += row + [UInt8](repeating: 0, count: colourRow - row.count)
        }
        for y in (0..<height).reversed() {
            var row = [UInt8](repeating: 0, count: maskRow)
            for x in 0..<width where picture[x, y].alpha < 128 { row[x / 8] |= 0x80 >> (x % 8) }
            body += row
        }
        let header: [UInt8] = le16(0) + le16(1) + le16(1) + [UInt8(width), UInt8(height), 0, 0] + le16(1) + le16(24) + le32(body.count) + le32(22)
        return Data(header + body)
    }
}
