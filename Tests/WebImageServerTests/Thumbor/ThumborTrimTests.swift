import Testing
import WebImageCore
import WebImageServer
import WebImageTransformers

/// An image made of rectangles, a `trim` option, and the region thumbor 7.8.0 cropped to
/// (recorded by running thumbor on the same image as a PNG, with an engine logging its
/// crops; `nil` where thumbor left the image whole).
struct TrimCase: Sendable, CustomTestStringConvertible {
    var name: String
    var option: String
    var size: PixelSize
    var hasAlpha: Bool
    var background: [Int]
    /// `[x0, y0, x1, y1 (inclusive), r, g, b, a]`.
    var rects: [[Int]]
    var region: PixelRect?

    init(_ name: String, option: String, size: [Int], hasAlpha: Bool, background: [Int], rects: [[Int]], region: [Int]?) {
        self.name = name
        self.option = option
        self.size = PixelSize(width: size[0], height: size[1])
        self.hasAlpha = hasAlpha
        self.background = background
        self.rects = rects
        self.region = region.map { PixelRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }

    var testDescription: String { "\(option) on \(name)" }

    /// The image.
    func bitmap() throws -> Bitmap {
        func color(_ values: ArraySlice<Int>) -> RGBAColor {
            let v = Array(values)
            return RGBAColor(red: UInt8(v[0]), green: UInt8(v[1]), blue: UInt8(v[2]), alpha: UInt8(v[3]))
        }
        var bitmap = try Bitmap(width: size.width, height: size.height, fill: color(background[...]), hasAlpha: hasAlpha)
        for rect in rects {
            for y in rect[1]...rect[3] {
                for x in rect[0]...rect[2] { bitmap[x, y] = color(rect[4...7]) }
            }
        }
        return bitmap
    }
}

@Suite struct ThumborTrimTests {
    static let cases: [TrimCase] = [
        TrimCase("border", option: "trim", size: [400, 300], hasAlpha: false, background: [255, 255, 255, 255], rects: [[50, 40, 349, 259, 200, 30, 30, 255]], region: [50, 40, 300, 220]),
        TrimCase("lone", option: "trim", size: [100, 80], hasAlpha: false, background: [255, 255, 255, 255], rects: [[30, 20, 30, 20, 0, 0, 0, 255]], region: nil),
        TrimCase("two-rows", option: "trim", size: [100, 80], hasAlpha: false, background: [255, 255, 255, 255], rects: [[30, 20, 30, 20, 0, 0, 0, 255], [70, 50, 70, 50, 0, 0, 0, 255]], region: nil),
        TrimCase("pair", option: "trim", size: [100, 80], hasAlpha: false, background: [255, 255, 255, 255], rects: [[30, 20, 30, 20, 0, 0, 0, 255], [60, 20, 60, 20, 0, 0, 0, 255]], region: [30, 20, 31, 1]),
        TrimCase("halves-tl", option: "trim", size: [120, 60], hasAlpha: false, background: [255, 255, 255, 255], rects: [[0, 0, 59, 59, 0, 0, 255, 255], [70, 10, 80, 20, 0, 0, 255, 255]], region: [60, 0, 60, 60]),
        TrimCase("halves-br", option: "trim:bottom-right", size: [120, 60], hasAlpha: false, background: [255, 255, 255, 255], rects: [[0, 0, 59, 59, 0, 0, 255, 255], [70, 10, 80, 20, 0, 0, 255, 255]], region: [0, 0, 81, 60]),
        TrimCase("band-10", option: "trim:10", size: [200, 100], hasAlpha: false, background: [255, 255, 255, 255], rects: [[10, 10, 189, 89, 250, 250, 250, 255], [40, 30, 159, 69, 255, 0, 0, 255]], region: [10, 10, 180, 80]),
        TrimCase("band-5", option: "trim:top-left:5", size: [200, 100], hasAlpha: false, background: [255, 255, 255, 255], rects: [[10, 10, 189, 89, 250, 250, 250, 255], [40, 30, 159, 69, 255, 0, 0, 255]], region: [10, 10, 180, 80]),
        TrimCase("band-br-9", option: "trim:bottom-right:9", size: [200, 100], hasAlpha: false, background: [255, 255, 255, 255], rects: [[10, 10, 189, 89, 250, 250, 250, 255], [40, 30, 159, 69, 255, 0, 0, 255]], region: [40, 30, 120, 40]),
        TrimCase("all-same", option: "trim", size: [50, 40], hasAlpha: false, background: [10, 20, 30, 255], rects: [], region: nil),
        TrimCase("alpha", option: "trim", size: [80, 60], hasAlpha: true, background: [0, 0, 0, 0], rects: [[20, 10, 59, 49, 0, 0, 0, 255]], region: [20, 10, 40, 40]),
        TrimCase("alpha-tol", option: "trim:300", size: [80, 60], hasAlpha: true, background: [0, 0, 0, 0], rects: [[20, 10, 59, 49, 0, 0, 0, 255]], region: [20, 10, 40, 40]),
        TrimCase("diagonal", option: "trim", size: [90, 90], hasAlpha: false, background: [0, 0, 0, 255], rects: [[10, 70, 12, 72, 255, 255, 255, 255], [60, 5, 61, 6, 255, 255, 255, 255], [40, 40, 40, 40, 255, 255, 255, 255]], region: [10, 5, 52, 68]),
        TrimCase("edge", option: "trim", size: [64, 48], hasAlpha: false, background: [255, 255, 255, 255], rects: [[0, 47, 63, 47, 0, 0, 0, 255]], region: [0, 47, 64, 1]),
    ]

    @Test(arguments: cases)
    func trimsLikeThumbor(_ expected: TrimCase) throws {
        let request = try ThumborURLParser.parse("/unsafe/\(expected.option)/a.png")
        let trim = try #require(request.trim)
        #expect(trim.region(in: try expected.bitmap()) == expected.region)
    }

    @Test func thePlanKeepsTheTrimmedRegion() throws {
        let request = try ThumborURLParser.parse("/unsafe/trim/fit-in/100x100/a.png")
        let bitmap = try Self.cases[0].bitmap()
        let trim = try #require(request.trim)
        let region = try #require(trim.region(in: bitmap))
        let plan = request.plan(sourceSize: bitmap.size, trimmedRegion: region)
        #expect(plan.crop == PixelRect(x: 50, y: 40, width: 300, height: 220))
        #expect(plan.size == PixelSize(width: 100, height: 73))
    }
}
