import Foundation
import Testing
import SwiftWebImage
import WebImageTestSupport
@testable import WebImageServer

/// Every filter end to end, on PNG output (exact pixels) of the 64x48 gradient JPEG.
@Suite struct ServingFilterTests {
    let fixture: ServingFixture

    init() throws {
        fixture = try ServingFixture()
    }

    private func render(_ filters: [ThumborFilter], width: Int? = nil, height: Int? = nil, fitIn: ThumborRequest.FitIn = .none, flipH: Bool = false, flipV: Bool = false, source: String = "photos/a.jpg") async throws -> WebImage {
        let request = ThumborRequest(signedPart: "\(filters)|\(String(describing: width))|\(String(describing: height))|\(fitIn)|\(flipH)\(flipV)|\(source)", fitIn: fitIn, width: width, height: height, flipsHorizontally: flipH, flipsVertically: flipV, filters: filters + [.format(.png)], source: source)
        let response = await fixture.get(request)
        try #require(response.status == 200, "\(response.text)")
        return try ServingFixture.decode(response)
    }

    private func original() async throws -> Bitmap {
        try await render([]).bitmap
    }

    @Test func grayscale() async throws {
        let bitmap = try await render([.grayscale]).bitmap
        for (x, y) in [(0, 0), (63, 0), (30, 20), (63, 47)] {
            let pixel = bitmap[x, y]
            #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
        }
    }

    @Test func rotateTurnsByQuarterTurnsAndIgnoresOtherAngles() async throws {
        let source = try await original()
        let turned = try await render([.rotate(90)]).bitmap
        #expect(turned.size == PixelSize(width: 48, height: 64))
        // Counter-clockwise: the source's top-right corner comes to the top left.
        #expect(turned[0, 0] == source[63, 0])
        let half = try await render([.rotate(180)]).bitmap
        #expect(half.size == source.size)
        #expect(half[0, 0] == source[63, 47])
        let ignored = try await render([.rotate(45)]).bitmap
        #expect(ignored == source)
    }

    @Test func blurSmoothsTheImage() async throws {
        let source = try await original()
        let blurred = try await render([.blur(radius: 4, sigma: nil)]).bitmap
        #expect(blurred.size == source.size)
        #expect(blurred != source)
        let sigma = try await render([.blur(radius: 4, sigma: 1)]).bitmap
        #expect(sigma != blurred)
    }

    @Test func brightnessContrastSaturation() async throws {
        let white = try await render([.brightness(100)]).bitmap
        #expect(white[10, 10] == RGBAColor(red: 255, green: 255, blue: 255))
        let black = try await render([.brightness(-100)]).bitmap
        #expect(black[10, 10] == RGBAColor(red: 0, green: 0, blue: 0))
        let flat = try await render([.contrast(-100)]).bitmap
        #expect(abs(Int(flat[5, 5].red) - 128) <= 1 && abs(Int(flat[60, 40].green) - 128) <= 1)
        let source = try await original()
        let same = try await render([.contrast(0)]).bitmap
        #expect(abs(Int(same[30, 20].red) - Int(source[30, 20].red)) <= 1)
        let gray = try await render([.saturation(0)]).bitmap
        let pixel = gray[50, 10]
        #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
    }

    @Test func roundCornersPaintOrClearTheCorners() async throws {
        let red = RGBAColor(red: 255, green: 0, blue: 0)
        let painted = try await render([.roundCorner(horizontalRadius: 12, verticalRadius: 8, color: red, transparent: false)]).bitmap
        let source = try await original()
        for (x, y) in [(0, 0), (63, 0), (0, 47), (63, 47)] {
            #expect(painted[x, y] == red)
        }
        #expect(painted[32, 24] == source[32, 24])
        #expect(painted[12, 0] == source[12, 0])
        let clear = try await render([.roundCorner(horizontalRadius: 10, verticalRadius: 10, color: red, transparent: true)])
        #expect(clear.hasAlpha)
        #expect(clear.bitmap[0, 0].alpha == 0)
        #expect(clear.bitmap[32, 24].alpha == 255)
    }

    @Test func fillPadsOnTheCanvas() async throws {
        let image = try await render([.fill("ff0000")], width: 100, height: 100, fitIn: .fitIn)
        #expect(image.pixelSize == PixelSize(width: 100, height: 100))
        #expect(image.bitmap[0, 0] == RGBAColor(red: 255, green: 0, blue: 0))
        let named = try await render([.fill("blue")], width: 100, height: 100, fitIn: .fitIn)
        #expect(named.bitmap[0, 0] == RGBAColor(red: 0, green: 0, blue: 255))
        let auto = try await render([.fill("auto")], width: 100, height: 100, fitIn: .fitIn)
        #expect(auto.bitmap[0, 0].alpha == 255)
        let blur = try await render([.fill("blur")], width: 100, height: 100, fitIn: .fitIn)
        #expect(blur.pixelSize == PixelSize(width: 100, height: 100))
        let transparent = try await render([.fill("transparent")], width: 100, height: 100, fitIn: .fitIn)
        #expect(transparent.bitmap[0, 0].alpha == 0)
    }

    @Test func aBadFillColourIs400() async throws {
        let response = await fixture.get(ThumborRequest(signedPart: "bad", width: 100, height: 100, filters: [.fill("notacolour")], source: "photos/a.jpg"))
        #expect(response.status == 400)
        #expect(response.text.contains("notacolour"))
    }

    @Test func flipsMirrorThePixels() async throws {
        let source = try await original()
        let horizontal = try await render([], flipH: true).bitmap
        #expect(horizontal[0, 0] == source[63, 0])
        let vertical = try await render([], flipV: true).bitmap
        #expect(vertical[0, 0] == source[0, 47])
    }

    @Test func filtersRunInURLOrder() async throws {
        // Grey then red corners keeps red corners; red corners then grey makes them grey.
        let red = RGBAColor(red: 255, green: 0, blue: 0)
        let cornersLast = try await render([.grayscale, .roundCorner(horizontalRadius: 8, verticalRadius: 8, color: red, transparent: false)]).bitmap
        #expect(cornersLast[0, 0] == red)
        let greyLast = try await render([.roundCorner(horizontalRadius: 8, verticalRadius: 8, color: red, transparent: false), .grayscale]).bitmap
        #expect(greyLast[0, 0].red == greyLast[0, 0].green)
    }
}

extension ServingFilterTests {
    @Test func backgroundColorFillsTransparency() async throws {
        let image = try await render([.backgroundColor("00ff00")], source: "b.png")
        #expect(!image.hasAlpha)
        // The PNG's top-left pixel is fully transparent: it becomes the background.
        #expect(image.bitmap[0, 0] == RGBAColor(red: 0, green: 255, blue: 0))
    }

    @Test func fillCanMergeTransparency() async throws {
        let pasted = try await render([.fill("ff0000", transparent: false)], width: 60, height: 60, fitIn: .fitIn, source: "b.png")
        let merged = try await render([.fill("ff0000", transparent: true)], width: 60, height: 60, fitIn: .fitIn, source: "b.png")
        // The image's transparent top-left pixel sits at (10, 15) on the 60x60 canvas.
        #expect(pasted.bitmap[10, 15].alpha == 0)
        #expect(merged.bitmap[10, 15] == RGBAColor(red: 255, green: 0, blue: 0))
    }

    @Test func thumborArithmeticForColourFilters() throws {
        let bitmap = try Bitmap(width: 1, height: 1, bytes: [200, 100, 10, 255], hasAlpha: false)
        #expect(ThumborPixelFilters.brightness(bitmap, amount: 10)[0, 0] == RGBAColor(red: 225, green: 125, blue: 35))
        // k = (50 + 100)^2 / 100 = 225: 225 * 72 / 100 + 128 = 290 -> 255; 225 * -28 / 100 + 128 = 65 (C truncation).
        #expect(ThumborPixelFilters.contrast(bitmap, amount: 50)[0, 0] == RGBAColor(red: 255, green: 65, blue: 0))
        let gray = ThumborPixelFilters.saturation(bitmap, factor: 0)[0, 0]
        #expect(gray.red == gray.green && gray.green == gray.blue && gray.red == 133)
    }
}
