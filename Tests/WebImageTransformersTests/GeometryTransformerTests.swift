import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageTransformers

/// Resize modes, crop bounds, flips and rotations.
@Suite(.onOwnThreads) struct GeometryTransformerTests {
    let source = Pictures.noise(width: 9, height: 6)
    var image: WebImage { WebImage(bitmap: source, scale: 2, format: .png, metadata: [.decoded, .thumbnail]) }

    // MARK: Resize

    @Test("fill resizes to exactly the size, like Bitmap.resampled", arguments: ResamplingFilter.allCases)
    func resizeFill(filter: ResamplingFilter) throws {
        let size = PixelSize(width: 5, height: 11)
        let output = try ResizingTransformer(size: size, filter: filter).transform(image, forKey: "k")
        #expect(output.pixelSize == size)
        #expect(output.bitmap == (try source.resampled(to: size, filter: filter)))
        #expect(output.scale == 2 && output.format == .png)
        #expect(output.metadata == [.decoded, .thumbnail, .transformed])
    }

    @Test("aspectFit letterboxes with transparent bands, centered")
    func resizeAspectFit() throws {
        let solid = WebImage(bitmap: try Bitmap(width: 40, height: 20, fill: RGBAColor(red: 9, green: 99, blue: 199), hasAlpha: false))
        let output = try solid.transformed(by: .resize(to: PixelSize(width: 10, height: 10), mode: .aspectFit))
        #expect(output.pixelSize == PixelSize(width: 10, height: 10))
        #expect(output.hasAlpha)
        // 40x20 fits as 10x5, placed at rows 2..<7.
        for y in 0..<10 {
            for x in 0..<10 {
                let expected = (2..<7).contains(y) ? RGBAColor(red: 9, green: 99, blue: 199) : .clear
                #expect(output.bitmap[x, y] == expected, "(\(x), \(y))")
            }
        }
    }

    @Test("aspectFill covers the size and crops the overflow, centered")
    func resizeAspectFill() throws {
        // Left third red, middle third green, right third blue; filled into a square, only the
        // middle third remains.
        var bitmap = try Bitmap(width: 30, height: 10, fill: .black, hasAlpha: false)
        for y in 0..<10 {
            for x in 0..<30 {
                bitmap[x, y] = x < 10 ? RGBAColor(red: 255, green: 0, blue: 0) : x < 20 ? RGBAColor(red: 0, green: 255, blue: 0) : RGBAColor(red: 0, green: 0, blue: 255)
            }
        }
        let output = try WebImage(bitmap: bitmap).transformed(by: .resize(to: PixelSize(width: 5, height: 5), mode: .aspectFill))
        #expect(output.pixelSize == PixelSize(width: 5, height: 5))
        #expect(Set(Pictures.pixels(output.bitmap)) == [RGBAColor(red: 0, green: 255, blue: 0)])
        #expect(!output.hasAlpha)
    }

    @Test("resizing to an empty size is invalidArgument")
    func resizeEmpty() {
        let error = #expect(throws: WebImageError.self) {
            try ResizingTransformer(size: PixelSize(width: 0, height: 3)).transform(image, forKey: "key-1")
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("0x3") == true)
    }

    @Test("a target over the pixel limit is invalidArgument before any allocation", arguments: [ResizingTransformer.ScaleMode.fill, .aspectFit, .aspectFill])
    func resizeTooLarge(mode: ResizingTransformer.ScaleMode) {
        let error = #expect(throws: WebImageError.self) {
            try image.transformed(by: .resize(to: PixelSize(width: 1, height: Bitmap.maximumResampledPixelCount + 1), mode: mode))
        }
        #expect(error?.code == .invalidArgument)
    }

    // MARK: Crop

    @Test("crop copies the rectangle exactly")
    func cropExact() throws {
        let output = try CroppingTransformer(rect: PixelRect(x: 2, y: 1, width: 4, height: 3)).transform(image, forKey: "k")
        #expect(output.pixelSize == PixelSize(width: 4, height: 3))
        for y in 0..<3 {
            for x in 0..<4 {
                #expect(output.bitmap[x, y] == source[x + 2, y + 1])
            }
        }
        #expect(output.scale == 2 && output.metadata.contains(.transformed))
    }

    @Test("clamp keeps the part inside the image", arguments: [
        (PixelRect(x: -3, y: -2, width: 5, height: 4), PixelRect(x: 0, y: 0, width: 2, height: 2)),
        (PixelRect(x: 7, y: 4, width: 10, height: 10), PixelRect(x: 7, y: 4, width: 2, height: 2)),
        (PixelRect(x: -100, y: -100, width: 1000, height: 1000), PixelRect(x: 0, y: 0, width: 9, height: 6)),
        (PixelRect(x: Int.max - 1, y: 0, width: Int.max, height: 3), nil),
    ])
    func cropClamp(rect: PixelRect, kept: PixelRect?) throws {
        let transformer = CroppingTransformer(rect: rect)
        guard let kept else {
            let error = #expect(throws: WebImageError.self) { try transformer.transform(image, forKey: "k") }
            #expect(error?.code == .transformFailed)
            return
        }
        let output = try transformer.transform(image, forKey: "k")
        #expect(output.pixelSize == kept.size)
        #expect(output.bitmap[0, 0] == source[kept.x, kept.y])
        #expect(output.bitmap[kept.width - 1, kept.height - 1] == source[kept.x + kept.width - 1, kept.y + kept.height - 1])
    }

    @Test("strict rejects a rectangle reaching outside, naming it and the image size")
    func cropStrict() throws {
        let error = #expect(throws: WebImageError.self) {
            try CroppingTransformer(rect: PixelRect(x: 5, y: 0, width: 5, height: 6), bounds: .strict).transform(image, forKey: "k")
        }
        #expect(error?.code == .transformFailed)
        #expect(error?.message.contains("(5,0,5x6)") == true && error?.message.contains("9x6") == true)
        // Exactly the whole image is inside.
        let whole = try CroppingTransformer(rect: PixelRect(x: 0, y: 0, width: 9, height: 6), bounds: .strict).transform(image, forKey: "k")
        #expect(whole.bitmap == source)
    }

    @Test("a rectangle that misses the image, or an empty one, is an error", arguments: [
        (PixelRect(x: 9, y: 0, width: 3, height: 3), WebImageError.Code.transformFailed),
        (PixelRect(x: -5, y: -5, width: 5, height: 5), .transformFailed),
        (PixelRect(x: 0, y: 0, width: 0, height: 3), .invalidArgument),
        (PixelRect(x: 0, y: 0, width: 3, height: -1), .invalidArgument),
    ])
    func cropMiss(rect: PixelRect, code: WebImageError.Code) {
        let error = #expect(throws: WebImageError.self) { try CroppingTransformer(rect: rect).transform(image, forKey: "k") }
        #expect(error?.code == code)
    }

    // MARK: Flip

    @Test("flips move pixels exactly", arguments: [(true, false), (false, true), (true, true), (false, false)])
    func flip(horizontal: Bool, vertical: Bool) throws {
        let output = try FlippingTransformer(horizontal: horizontal, vertical: vertical).transform(image, forKey: "k")
        #expect(output.pixelSize == source.size)
        for y in 0..<6 {
            for x in 0..<9 {
                #expect(output.bitmap[x, y] == source[horizontal ? 8 - x : x, vertical ? 5 - y : y])
            }
        }
        #expect(output.metadata.contains(.transformed))
    }

    @Test("flipping twice gives back the original")
    func flipTwice() throws {
        let once = try image.transformed(by: .flip(horizontal: true, vertical: true))
        #expect(try once.transformed(by: .flip(horizontal: true, vertical: true)).bitmap == source)
    }

    // MARK: Rotate

    @Test("quarter turns are exact (counterclockwise as displayed)", arguments: [90.0, 180, 270, -90, 450, 360, 0])
    func quarterTurns(degrees: Double) throws {
        let output = try image.transformed(by: .rotate(degrees: degrees))
        let turns = ((Int(degrees) / 90) % 4 + 4) % 4
        let (w, h) = (9, 6)
        #expect(output.pixelSize == (turns % 2 == 1 ? PixelSize(width: h, height: w) : PixelSize(width: w, height: h)))
        for y in 0..<output.pixelSize.height {
            for x in 0..<output.pixelSize.width {
                // Where output pixel (x, y) comes from, turn by turn.
                let from: (Int, Int) = switch turns {
                case 1: (w - 1 - y, x)      // the right column becomes the top row
                case 2: (w - 1 - x, h - 1 - y)
                case 3: (y, h - 1 - x)      // the left column becomes the top row, reversed
                default: (x, y)
                }
                #expect(output.bitmap[x, y] == source[from.0, from.1])
            }
        }
    }

    @Test("a quarter turn without fitSize keeps the canvas and centers the turned image")
    func quarterTurnKeepSize() throws {
        let output = try image.transformed(by: .rotate(degrees: 90, fitSize: false))
        #expect(output.pixelSize == source.size)
        #expect(output.hasAlpha)
        // The turned image is 6 wide and 9 tall: columns 1..<7 hold its rows 1...6 ((9 - 6) / 2 = 1 row cut on top).
        let turned = try image.transformed(by: .rotate(degrees: 90)).bitmap
        for y in 0..<6 {
            for x in 0..<9 {
                let expected = (1..<7).contains(x) ? turned[x - 1, y + 1] : .clear
                #expect(output.bitmap[x, y] == expected)
            }
        }
    }

    @Test("any angle: fitted canvas, exact color inside, transparent corners, anti-aliased edges")
    func arbitraryAngle() throws {
        let color = RGBAColor(red: 30, green: 160, blue: 220)
        let solid = WebImage(bitmap: try Bitmap(width: 40, height: 20, fill: color, hasAlpha: false))
        let angle = Double.pi / 6
        let output = try solid.transformed(by: .rotate(by: angle))
        // Bounding box of a 40x20 rectangle turned 30 degrees: 40 cos + 20 sin by 40 sin + 20 cos.
        let expectedWidth = Int((40 * cos(angle) + 20 * sin(angle)).rounded(.up))
        let expectedHeight = Int((40 * sin(angle) + 20 * cos(angle)).rounded(.up))
        #expect(output.pixelSize == PixelSize(width: expectedWidth, height: expectedHeight))
        #expect(output.hasAlpha)
        let bitmap = output.bitmap
        #expect(bitmap[0, 0].alpha == 0 && bitmap[expectedWidth - 1, expectedHeight - 1].alpha == 0)
        #expect(bitmap[expectedWidth / 2, expectedHeight / 2] == color)
        var partial = 0
        for pixel in Pictures.pixels(bitmap) where pixel.alpha > 0 {
            #expect(pixel.red == color.red && pixel.green == color.green && pixel.blue == color.blue)
            if pixel.alpha < 255 { partial += 1 }
        }
        #expect(partial > 20, "edges should be anti-aliased")
        // The covered area is the rectangle's: 800 pixels, within the edge pixels' rounding.
        let area = Pictures.pixels(bitmap).reduce(0.0) { $0 + Double($1.alpha) / 255 }
        #expect(abs(area - 800) < 8)
    }

    @Test("a non-finite angle is invalidArgument")
    func badAngle() {
        let error = #expect(throws: WebImageError.self) { try image.transformed(by: .rotate(by: .nan)) }
        #expect(error?.code == .invalidArgument)
    }
}

extension WebImage {
    /// Shorthand for the tests.
    func transformed(by transformer: some ImageTransformer) throws -> WebImage {
        try transformer.transform(self, forKey: "test-key")
    }
}
