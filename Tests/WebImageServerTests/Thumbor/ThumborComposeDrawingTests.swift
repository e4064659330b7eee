import Testing
import WebImageCore
import WebImageTestSupport
@testable import WebImageServer

/// thumbor's watermark and nine-patch arithmetic on small bitmaps, computed by hand from
/// `thumbor/filters/watermark.py`, `ext/filters/_alpha.c`, `_composite.c` and `_nine_patch.c`.
@Suite struct ThumborComposeDrawingTests {
    private func origins(_ mark: PixelSize, _ image: PixelSize, _ x: ThumborWatermark.Position, _ y: ThumborWatermark.Position) -> [[Int]] {
        ThumborWatermarkDrawing.origins(of: mark, on: image, x: x, y: y).map { [$0.x, $0.y] }
    }

    @Test func singlePositions() {
        let mark = PixelSize(width: 24, height: 16), image = PixelSize(width: 80, height: 60)
        #expect(origins(mark, image, .offset(10), .offset(5)) == [[10, 5]])
        // -N: from the right and bottom edges; -0 is flush with them.
        #expect(origins(mark, image, .fromEnd(10), .fromEnd(0)) == [[46, 44]])
        // Np: round(side * N / 100 + 0.00001): 80 * 25% = 20, 60 * 40% = 24.
        #expect(origins(mark, image, .percent(25), .percent(40)) == [[20, 24]])
        // -Np: 80 * 10% = 8 from the right: 80 - 24 - 8.
        #expect(origins(mark, image, .percentFromEnd(10), .percentFromEnd(20)) == [[48, 32]])
        // Halves round up (the 0.00001), here 81 * 50% = 40.5.
        #expect(origins(mark, PixelSize(width: 81, height: 61), .percent(50), .percent(50)) == [[41, 31]])
        // center: (side - size) / 2 truncated towards zero, also when the watermark is larger.
        #expect(origins(mark, PixelSize(width: 61, height: 11), .center, .center) == [[18, -2]])
    }

    @Test func repeatedPositions() {
        let mark = PixelSize(width: 24, height: 16)
        // 80 = 3 x 24 + 8: 3 tiles, 8 // 2 = 4 apart; 60 = 3 x 16 + 12: 6 apart. Column by column.
        #expect(origins(mark, PixelSize(width: 80, height: 60), .repeat, .repeat) == [[0, 0], [0, 22], [0, 44], [28, 0], [28, 22], [28, 44], [56, 0], [56, 22], [56, 44]])
        #expect(origins(mark, PixelSize(width: 80, height: 60), .repeat, .offset(7)) == [[0, 7], [28, 7], [56, 7]])
        #expect(origins(mark, PixelSize(width: 80, height: 60), .fromEnd(0), .repeat) == [[56, 0], [56, 22], [56, 44]])
        // Less than two watermarks: as many as cover the side, 10 apart.
        #expect(origins(mark, PixelSize(width: 40, height: 30), .repeat, .repeat) == [[0, 0], [0, 26], [34, 0], [34, 26]])
        #expect(origins(mark, PixelSize(width: 20, height: 10), .repeat, .offset(0)) == [[0, 0]])
    }

    @Test func aGridOfMoreThanAHundredTilesIsSixBySix() {
        // 100 x 100 tiles of 4 x 3 on 400 x 300: 6 x 6 instead, (400 - 24) // 5 = 75 and
        // (300 - 18) // 5 = 56 apart.
        let places = ThumborWatermarkDrawing.origins(of: PixelSize(width: 4, height: 3), on: PixelSize(width: 400, height: 300), x: .repeat, y: .repeat)
        #expect(places.count == 36)
        #expect(Set(places.map(\.x)) == [0, 79, 158, 237, 316, 395])
        #expect(Set(places.map(\.y)) == [0, 59, 118, 177, 236, 295])
        // 10 x 10 is not more than 100: all of them.
        #expect(ThumborWatermarkDrawing.origins(of: PixelSize(width: 8, height: 6), on: PixelSize(width: 80, height: 60), x: .repeat, y: .repeat).count == 100)
    }

    @Test func ratiosFitTheWatermarkInTheirBox() {
        let logo = PixelSize(width: 30, height: 20), image = PixelSize(width: 80, height: 60)
        #expect(ThumborWatermarkDrawing.scaledSize(of: logo, on: image, widthRatio: nil, heightRatio: nil) == nil)
        // 50% of 80 = 40 wide; 20 * 40 / 30 = 26.67 high, rounded.
        #expect(ThumborWatermarkDrawing.scaledSize(of: logo, on: image, widthRatio: 50, heightRatio: nil) == PixelSize(width: 40, height: 27))
        // 50% of 60 = 30 high; 30 * 30 / 20 = 45 wide.
        #expect(ThumborWatermarkDrawing.scaledSize(of: logo, on: image, widthRatio: nil, heightRatio: 50) == PixelSize(width: 45, height: 30))
        // A 64 x 12 box: the height decides.
        #expect(ThumborWatermarkDrawing.scaledSize(of: logo, on: image, widthRatio: 80, heightRatio: 20) == PixelSize(width: 18, height: 12))
        // Larger than the image when asked; never under 1 pixel.
        #expect(ThumborWatermarkDrawing.scaledSize(of: logo, on: image, widthRatio: 200, heightRatio: nil) == PixelSize(width: 160, height: 107))
        #expect(ThumborWatermarkDrawing.scaledSize(of: PixelSize(width: 100, height: 1), on: image, widthRatio: 1, heightRatio: nil) == PixelSize(width: 1, height: 1))
    }

    @Test func alphaLowersEveryAlphaValue() {
        let mark = Pixels.make(width: 2, height: 1) { x, _ in RGBAColor(red: 9, green: 8, blue: 7, alpha: x == 0 ? 200 : 100) }
        // 255 * 50 / 100 = 127 (integer division).
        let half = ThumborWatermarkDrawing.lowered(mark, by: 50)
        #expect(half[0, 0] == RGBAColor(red: 9, green: 8, blue: 7, alpha: 73))
        #expect(half[1, 0] == RGBAColor(red: 9, green: 8, blue: 7, alpha: 0))
        #expect(ThumborWatermarkDrawing.lowered(mark, by: 100)[0, 0].alpha == 0)
        #expect(ThumborWatermarkDrawing.lowered(mark, by: 0) == mark)
        let opaque = Pixels.make(width: 1, height: 1, hasAlpha: false) { _, _ in .white }
        #expect(ThumborWatermarkDrawing.lowered(opaque, by: 10)[0, 0].alpha == 230)
    }

    @Test(arguments: [
        // image, mark, result (thumbor's `_composite`, computed by hand in floating point and truncated).
        (RGBAColor(red: 100, green: 150, blue: 200, alpha: 255), RGBAColor(red: 0, green: 0, blue: 0, alpha: 128), RGBAColor(red: 49, green: 74, blue: 99, alpha: 255)),
        (RGBAColor(red: 200, green: 0, blue: 0, alpha: 128), RGBAColor(red: 0, green: 0, blue: 200, alpha: 128), RGBAColor(red: 66, green: 0, blue: 133, alpha: 191)),
        (RGBAColor(red: 10, green: 20, blue: 30, alpha: 0), RGBAColor(red: 40, green: 50, blue: 60, alpha: 0), RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)),
        (RGBAColor(red: 10, green: 20, blue: 30, alpha: 0), RGBAColor(red: 40, green: 50, blue: 60, alpha: 77), RGBAColor(red: 40, green: 50, blue: 60, alpha: 77)),
        (RGBAColor(red: 100, green: 150, blue: 200, alpha: 255), RGBAColor(red: 255, green: 255, blue: 255, alpha: 255), RGBAColor(red: 255, green: 255, blue: 255, alpha: 255)),
    ])
    func compositeArithmetic(image: RGBAColor, mark: RGBAColor, result: RGBAColor) {
        var target = Pixels.make(width: 1, height: 1) { _, _ in image }
        ThumborWatermarkDrawing.composite(Pixels.make(width: 1, height: 1) { _, _ in mark }, over: &target, x: 0, y: 0)
        #expect(target[0, 0] == result)
    }

    @Test func compositeCutsWhatFallsOutside() {
        let image = Pixels.make(width: 4, height: 3, hasAlpha: false) { _, _ in .black }
        let mark = Pixels.make(width: 3, height: 3, hasAlpha: false) { _, _ in .white }
        var target = image
        ThumborWatermarkDrawing.composite(mark, over: &target, x: -2, y: 2)
        for y in 0..<3 {
            for x in 0..<4 {
                #expect(target[x, y] == (x == 0 && y == 2 ? .white : .black), "(\(x), \(y))")
            }
        }
        target = image
        ThumborWatermarkDrawing.composite(mark, over: &target, x: 4, y: 0)
        #expect(target == image)
    }

    // MARK: Nine-patch

    /// A 5 x 5 nine-patch: the middle column and row stretch; the content area is the middle
    /// pixel (padding 1 on every side); red corners, green edges, a transparent middle.
    static let simpleNinePatch = Pixels.make(width: 5, height: 5) { x, y in
        let marker = RGBAColor(red: 0, green: 0, blue: 0, alpha: 255)
        if y == 0 || x == 0 { return (x == 2 && y == 0) || (y == 2 && x == 0) ? marker : .clear }
        if y == 4 || x == 4 { return (x == 2 && y == 4) || (y == 2 && x == 4) ? marker : .clear }
        if x == 2, y == 2 { return .clear }
        return x == 2 || y == 2 ? RGBAColor(red: 0, green: 255, blue: 0) : RGBAColor(red: 255, green: 0, blue: 0)
    }

    @Test func paddingComesFromTheBottomRowAndRightColumn() {
        #expect(ThumborNinePatch.padding(of: Self.simpleNinePatch) == .init(left: 1, top: 1, right: 1, bottom: 1))
        let uneven = Pixels.make(width: 8, height: 6) { x, y in
            let marker = RGBAColor(red: 0, green: 0, blue: 0, alpha: 255)
            if y == 5, (3...4).contains(x) { return marker }
            if x == 7, y == 1 { return marker }
            return .clear
        }
        // Bottom row markers from x = 3 to 4: left 2, right 8 - 2 - 4 = 2; right column at y = 1: top 0, bottom 6 - 2 - 1 = 3.
        #expect(ThumborNinePatch.padding(of: uneven) == .init(left: 2, top: 0, right: 2, bottom: 3))
        #expect(ThumborNinePatch.padding(of: Pixels.make(width: 4, height: 4) { _, _ in .white }) == .init())
        #expect(ThumborNinePatch.framedSize(of: PixelSize(width: 10, height: 10), with: uneven) == PixelSize(width: 14, height: 13))
    }

    @Test func aFrameStretchesItsEdgesAroundTheImage() throws {
        let image = Pixels.make(width: 4, height: 4, hasAlpha: false) { _, _ in RGBAColor(red: 0, green: 0, blue: 255) }
        let framed = try ThumborNinePatch.frame(image, with: Self.simpleNinePatch)
        #expect(framed.size == PixelSize(width: 6, height: 6))
        let red = RGBAColor(red: 255, green: 0, blue: 0), green = RGBAColor(red: 0, green: 255, blue: 0), blue = RGBAColor(red: 0, green: 0, blue: 255)
        for y in 0..<6 {
            for x in 0..<6 {
                let corner = (x == 0 || x == 5) && (y == 0 || y == 5)
                let edge = x == 0 || x == 5 || y == 0 || y == 5
                #expect(framed[x, y] == (corner ? red : edge ? green : blue), "(\(x), \(y))")
            }
        }
    }

    @Test func stretchedCellsAreSampledBilinearlyAsThumborSamples() throws {
        // One stretching row of two pixels, red 0 then 200, drawn on 4 columns: samples at
        // (2 - 1) / 4 steps, so 0, 50, 100 and 150. No padding; one fixed row of height 1.
        let ninePatch = Pixels.make(width: 4, height: 3) { x, y in
            if y == 0 { return x == 1 || x == 2 ? RGBAColor(red: 0, green: 0, blue: 0, alpha: 255) : .clear }
            if y == 1, x == 1 { return RGBAColor(red: 0, green: 10, blue: 10) }
            if y == 1, x == 2 { return RGBAColor(red: 200, green: 10, blue: 10) }
            return .clear
        }
        let image = Pixels.make(width: 4, height: 1, hasAlpha: false) { _, _ in .white }
        let framed = try ThumborNinePatch.frame(image, with: ninePatch)
        #expect(framed.size == PixelSize(width: 4, height: 1))
        #expect((0..<4).map { Int(framed[$0, 0].red) } == [0, 50, 100, 150])
    }

    @Test func theImagesAlphaIsKept() throws {
        // The frame's colours are drawn "over" the image's, whose alpha stays as it was: on a
        // transparent image, an opaque red corner gives red with alpha 0, and a transparent
        // cell leaves no colour (thumbor's arithmetic does not divide by the result's alpha).
        let image = Pixels.make(width: 4, height: 4) { _, _ in RGBAColor(red: 0, green: 0, blue: 255, alpha: 0) }
        var target = image
        try ThumborNinePatch.draw(Self.simpleNinePatch, over: &target)
        #expect(target[0, 0] == RGBAColor(red: 255, green: 0, blue: 0, alpha: 0))
        #expect(target[1, 1] == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
    }

    @Test func cellsThatDoNotFitAreNotDrawn() throws {
        // A 1 x 1 image: the stretching runs get nothing, the top-left corner fits, the
        // other fixed cells would reach outside and are left out.
        var tiny = Pixels.make(width: 1, height: 1, hasAlpha: false) { _, _ in .white }
        try ThumborNinePatch.draw(Self.simpleNinePatch, over: &tiny)
        #expect(tiny[0, 0] == RGBAColor(red: 255, green: 0, blue: 0))
        // A nine-patch too small to have cells changes nothing.
        var image = Pixels.make(width: 3, height: 3, hasAlpha: false) { _, _ in .white }
        try ThumborNinePatch.draw(Pixels.make(width: 2, height: 9) { _, _ in .black }, over: &image)
        #expect(image == Pixels.make(width: 3, height: 3, hasAlpha: false) { _, _ in .white })
    }
}
