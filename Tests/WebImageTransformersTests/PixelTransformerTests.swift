import Foundation
import Testing
import WebImageTestSupport
import WebImageCore
import WebImageTransformers

/// Round corner, tint, blur, color matrix: each against values computed here from the
/// documented formulas.
@Suite(.onOwnThreads) struct PixelTransformerTests {
    static let color = RGBAColor(red: 40, green: 120, blue: 200)

    // MARK: Round corner

    /// The fraction of pixel (x, y) inside a rounded rectangle, by 32 x 32 supersampling.
    static func coverage(x: Int, y: Int, width: Double, height: Double, radius r: Double, corners: RoundCornerTransformer.Corners) -> Double {
        var inside = 0
        let n = 32
        for sy in 0..<n {
            for sx in 0..<n {
                let px = Double(x) + (Double(sx) + 0.5) / Double(n)
                let py = Double(y) + (Double(sy) + 0.5) / Double(n)
                var center: (Double, Double)?
                if px < r, py < r, corners.contains(.topLeft) { center = (r, r) }
                if px > width - r, py < r, corners.contains(.topRight) { center = (width - r, r) }
                if px < r, py > height - r, corners.contains(.bottomLeft) { center = (r, height - r) }
                if px > width - r, py > height - r, corners.contains(.bottomRight) { center = (width - r, height - r) }
                if let (cx, cy) = center, (px - cx) * (px - cx) + (py - cy) * (py - cy) > r * r { continue }
                inside += 1
            }
        }
        return Double(inside) / Double(n * n)
    }

    @Test("round corners: transparent outside, alpha = covered area within 0.1, color kept", arguments: [
        RoundCornerTransformer.Corners.all, [.topLeft], [.topRight, .bottomLeft], [.bottomRight],
    ])
    func roundCorners(corners: RoundCornerTransformer.Corners) throws {
        let (w, h, r) = (24, 16, 6.5)
        let image = WebImage(bitmap: try Bitmap(width: w, height: h, fill: Self.color, hasAlpha: false))
        let output = try image.transformed(by: .roundCorner(radius: r, corners: corners))
        #expect(output.hasAlpha)
        let bitmap = output.bitmap
        for y in 0..<h {
            for x in 0..<w {
                let expected = Self.coverage(x: x, y: y, width: Double(w), height: Double(h), radius: r, corners: corners)
                let pixel = bitmap[x, y]
                #expect(abs(Double(pixel.alpha) / 255 - expected) <= 0.1, "(\(x), \(y)): \(pixel.alpha) vs \(expected)")
                if expected == 1 && abs(Double(pixel.alpha) / 255 - expected) > 0 {
                    // Fully covered pixels near the arc may lose at most the approximation's error.
                    #expect(pixel.alpha >= 230)
                }
                if pixel.alpha > 0 { #expect(pixel.red == 40 && pixel.green == 120 && pixel.blue == 200) }
            }
        }
        // The corner pixel itself is fully transparent exactly when its corner is rounded.
        #expect((bitmap[0, 0].alpha == 0) == corners.contains(.topLeft))
        #expect((bitmap[w - 1, 0].alpha == 0) == corners.contains(.topRight))
        #expect((bitmap[0, h - 1].alpha == 0) == corners.contains(.bottomLeft))
        #expect((bitmap[w - 1, h - 1].alpha == 0) == corners.contains(.bottomRight))
        #expect(bitmap[w / 2, h / 2] == Self.color)
    }

    @Test("the border has its color and width; inside it the image is untouched")
    func border() throws {
        let source = Pictures.noise(width: 20, height: 14, alpha: false)
        let borderColor = RGBAColor(red: 250, green: 5, blue: 120)
        let output = try WebImage(bitmap: source).transformed(by: .roundCorner(radius: 4, borderWidth: 2, borderColor: borderColor))
        let bitmap = output.bitmap
        // Along the straight edges: exactly two pixels of border.
        for x in 5..<15 {
            #expect(bitmap[x, 0] == borderColor && bitmap[x, 1] == borderColor && bitmap[x, 13] == borderColor && bitmap[x, 12] == borderColor)
            #expect(bitmap[x, 2] == source[x, 2] && bitmap[x, 11] == source[x, 11])
        }
        for y in 5..<9 {
            #expect(bitmap[0, y] == borderColor && bitmap[1, y] == borderColor && bitmap[19, y] == borderColor)
            #expect(bitmap[2, y] == source[2, y] && bitmap[17, y] == source[17, y])
        }
        // The middle is byte for byte the source.
        for y in 4..<10 { for x in 4..<16 { #expect(bitmap[x, y] == source[x, y]) } }
        #expect(bitmap[0, 0].alpha == 0)
    }

    @Test("a translucent border is painted over the image (source-over)")
    func translucentBorder() throws {
        let image = WebImage(bitmap: try Bitmap(width: 10, height: 10, fill: RGBAColor(red: 0, green: 0, blue: 200), hasAlpha: false))
        let output = try image.transformed(by: .roundCorner(radius: 0, borderWidth: 1, borderColor: RGBAColor(red: 255, green: 0, blue: 0, alpha: 51)))
        // 20% red over blue: (0.2 x 255, 0, 0.8 x 200).
        #expect(output.bitmap[5, 0] == RGBAColor(red: 51, green: 0, blue: 160))
        #expect(output.bitmap[5, 5] == RGBAColor(red: 0, green: 0, blue: 200))
        #expect(!output.hasAlpha)
    }

    @Test("absurd radius and border widths are clamped to the image")
    func roundCornerHuge() throws {
        let image = WebImage(bitmap: try Bitmap(width: 10, height: 6, fill: Self.color, hasAlpha: false))
        let border = try image.transformed(by: .roundCorner(radius: 0, borderWidth: 1e300, borderColor: .white)).bitmap
        #expect(Set(Pictures.pixels(border)) == [.white])
        let pill = try image.transformed(by: .roundCorner(radius: 1e15)).bitmap
        // Radius clamped to 3: a pill shape. The ends' middle pixels are almost covered (their
        // centers sit 0.45 inside the arc), the corners empty, the straight middle untouched.
        #expect(pill[0, 3].alpha >= 230 && pill[9, 2].alpha >= 230 && pill[0, 0].alpha == 0)
        #expect(pill[4, 0] == Self.color && pill[5, 5] == Self.color)
    }

    @Test("a negative radius or border width is invalidArgument", arguments: [(-1.0, 0.0), (1, -1), (.infinity, 0)])
    func roundCornerInvalid(radius: Double, width: Double) {
        let error = #expect(throws: WebImageError.self) {
            try WebImage(bitmap: TestBitmaps.gray).transformed(by: .roundCorner(radius: radius, borderWidth: width))
        }
        #expect(error?.code == .invalidArgument)
    }

    // MARK: Tint

    /// The documented formulas, in doubles.
    static func expectedTint(_ pixel: RGBAColor, _ tint: RGBAColor, _ mode: TintTransformer.BlendMode) -> RGBAColor {
        let ta = Double(tint.alpha) / 255
        func channel(_ cb: UInt8, _ ct: UInt8) -> UInt8 {
            let b = Double(cb), t = Double(ct)
            let blended: Double = switch mode {
            case .sourceIn, .sourceAtop: t
            case .multiply: b * t / 255
            case .screen: b + t - b * t / 255
            case .overlay: b <= 127.5 ? 2 * b * t / 255 : 255 - 2 * (255 - b) * (255 - t) / 255
            case .darken: min(b, t)
            case .lighten: max(b, t)
            }
            return UInt8(((1 - ta) * b + ta * blended).rounded())
        }
        if mode == .sourceIn {
            return RGBAColor(red: tint.red, green: tint.green, blue: tint.blue, alpha: UInt8((Double(tint.alpha) * Double(pixel.alpha) / 255).rounded()))
        }
        return RGBAColor(red: channel(pixel.red, tint.red), green: channel(pixel.green, tint.green), blue: channel(pixel.blue, tint.blue), alpha: pixel.alpha)
    }

    @Test("tint follows the blend formulas", arguments: TintTransformer.BlendMode.allCases, [
        RGBAColor(red: 255, green: 128, blue: 0), RGBAColor(red: 10, green: 200, blue: 90, alpha: 100),
    ])
    func tint(mode: TintTransformer.BlendMode, tint: RGBAColor) throws {
        let source = Pictures.noise(width: 16, height: 16)
        let output = try WebImage(bitmap: source).transformed(by: .tint(tint, mode: mode))
        for y in 0..<16 {
            for x in 0..<16 {
                #expect(output.bitmap[x, y] == Self.expectedTint(source[x, y], tint, mode), "\(mode) (\(x), \(y))")
            }
        }
    }

    @Test("hand-checked tints: white multiply, black screen, source-in keeps the shape")
    func tintByHand() throws {
        let pixel = RGBAColor(red: 100, green: 150, blue: 200, alpha: 128)
        let image = WebImage(bitmap: try Bitmap(width: 2, height: 2, fill: pixel))
        #expect(try image.transformed(by: .tint(.white, mode: .multiply)).bitmap[0, 0] == pixel)
        #expect(try image.transformed(by: .tint(.black, mode: .screen)).bitmap[0, 0] == pixel)
        #expect(try image.transformed(by: .tint(RGBAColor(red: 255, green: 0, blue: 0))).bitmap[1, 1] == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(try image.transformed(by: .tint(.black, mode: .multiply)).bitmap[1, 0] == RGBAColor(red: 0, green: 0, blue: 0, alpha: 128))
    }

    // MARK: Blur

    @Test("blur keeps the mean of every channel", arguments: [0.7, 2.5, 3, 6, 20])
    func blurMean(radius: Double) throws {
        let source = Pictures.noise(width: 37, height: 29, alpha: false)
        let output = try WebImage(bitmap: source).transformed(by: .blur(radius: radius)).bitmap
        for channel in 0..<3 {
            let before = Pictures.pixels(source).map { Double(Self.component($0, channel)) }.reduce(0, +) / Double(37 * 29)
            let after = Pictures.pixels(output).map { Double(Self.component($0, channel)) }.reduce(0, +) / Double(37 * 29)
            #expect(abs(before - after) < 0.5, "channel \(channel): \(before) -> \(after)")
        }
        #expect(Set(Pictures.pixels(output).map(\.alpha)) == [255])
    }

    static func component(_ pixel: RGBAColor, _ index: Int) -> UInt8 {
        [pixel.red, pixel.green, pixel.blue, pixel.alpha][index]
    }

    @Test("blur is a Gaussian of standard deviation `radius` (within the documented tolerance)", arguments: [1.0, 2.0, 3.0, 4.0, 8.0])
    func blurIsGaussian(radius: Double) throws {
        // One row: a bright pixel on black; the vertical direction sees a uniform column.
        var line = try Bitmap(width: 121, height: 1, fill: .black, hasAlpha: false)
        line[60, 0] = .white
        let output = try WebImage(bitmap: line).transformed(by: .blur(radius: radius)).bitmap
        let gaussian = Reference.gaussian(sigma: radius, reach: 60)
        // Exact below radius 3 (direct convolution): rounding only. From 3 up: 0.008 of the
        // total weight (255), plus rounding.
        let tolerance = radius < 3 ? 0.5 + 1e-6 : 0.008 * 255 + 0.5
        for x in 0..<121 {
            #expect(abs(Double(output[x, 0].red) - 255 * gaussian[x]) <= tolerance, "x \(x)")
        }
    }

    @Test("blurring tall and short images agrees with a 2-D Gaussian", arguments: [
        (PixelSize(width: 30, height: 40), 3.5), (PixelSize(width: 30, height: 6), 3.5), (PixelSize(width: 5, height: 33), 4.0),
        (PixelSize(width: 25, height: 25), 1.5), (PixelSize(width: 3, height: 2), 10.0),
    ])
    func blur2D(size: PixelSize, radius: Double) throws {
        let source = TestBitmaps.gradient(width: size.width, height: size.height)
        let output = try WebImage(bitmap: source).transformed(by: .blur(radius: radius)).bitmap
        // Reference: separable sampled Gaussian, premultiplied, mirrored edges.
        let reach = Int(4 * radius) + 1
        let kernel = Reference.gaussian(sigma: radius, reach: reach)
        func mirror(_ i: Int, _ n: Int) -> Int {
            var m = i % (2 * n)
            if m < 0 { m += 2 * n }
            return m < n ? m : 2 * n - 1 - m
        }
        var worst = 0.0
        for y in 0..<size.height {
            for x in 0..<size.width {
                var sum = (0.0, 0.0, 0.0, 0.0)
                for ky in -reach...reach {
                    for kx in -reach...reach {
                        let p = source[mirror(x + kx, size.width), mirror(y + ky, size.height)]
                        let w = kernel[kx + reach] * kernel[ky + reach]
                        let a = Double(p.alpha)
                        sum.0 += w * Double(p.red) * a
                        sum.1 += w * Double(p.green) * a
                        sum.2 += w * Double(p.blue) * a
                        sum.3 += w * a
                    }
                }
                let e = Reference.unpremultiplied(sum.0, sum.1, sum.2, sum.3)
                let o = output[x, y]
                worst = max(worst, abs(Double(o.red) - e.r), abs(Double(o.green) - e.g), abs(Double(o.blue) - e.b), abs(Double(o.alpha) - e.a))
            }
        }
        #expect(worst <= (radius < 3 ? 1 : 2.5), "worst difference \(worst)")
    }

    @Test("no halo: blurring red next to transparent white never pulls in white")
    func blurHalo() throws {
        for radius in [1.0, 5.0] {
            let output = try WebImage(bitmap: Pictures.redNextToTransparentWhite(width: 40, height: 20, split: 20)).transformed(by: .blur(radius: radius)).bitmap
            var partial = 0
            for pixel in Pictures.pixels(output) where pixel.alpha > 0 {
                #expect(pixel.red == 255 && pixel.green == 0 && pixel.blue == 0, "radius \(radius): \(pixel)")
                if pixel.alpha < 255 { partial += 1 }
            }
            #expect(partial >= 20)
        }
    }

    @Test("radius 0 leaves the pixels; a bad radius is invalidArgument")
    func blurEdgeCases() throws {
        let source = Pictures.noise(width: 8, height: 8)
        #expect(try WebImage(bitmap: source).transformed(by: .blur(radius: 0)).bitmap == source)
        for radius in [-1, 1001, Double.nan] {
            let error = #expect(throws: WebImageError.self) { try WebImage(bitmap: source).transformed(by: .blur(radius: radius)) }
            #expect(error?.code == .invalidArgument)
        }
    }

    // MARK: Color matrix

    /// Applies a 4x5 matrix by its definition.
    static func expectedMatrix(_ pixel: RGBAColor, _ m: [Double]) -> RGBAColor {
        let v = [Double(pixel.red), Double(pixel.green), Double(pixel.blue), Double(pixel.alpha)].map { $0 / 255 }
        let out = (0..<4).map { row -> UInt8 in
            let value = m[row * 5] * v[0] + m[row * 5 + 1] * v[1] + m[row * 5 + 2] * v[2] + m[row * 5 + 3] * v[3] + m[row * 5 + 4]
            return UInt8((min(max(value, 0), 1) * 255).rounded())
        }
        return RGBAColor(red: out[0], green: out[1], blue: out[2], alpha: out[3])
    }

    static let grayscaleValues: [Double] = [0.2126, 0.7152, 0.0722, 0, 0, 0.2126, 0.7152, 0.0722, 0, 0, 0.2126, 0.7152, 0.0722, 0, 0, 0, 0, 0, 1, 0]
    static let sepiaValues: [Double] = [0.393, 0.769, 0.189, 0, 0, 0.349, 0.686, 0.168, 0, 0, 0.272, 0.534, 0.131, 0, 0, 0, 0, 0, 1, 0]
    static let invertValues: [Double] = [-1, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0]
    static let brightnessValues: [Double] = [1, 0, 0, 0, 0.2, 0, 1, 0, 0, 0.2, 0, 0, 1, 0, 0.2, 0, 0, 0, 1, 0]
    static let contrastValues: [Double] = [1.5, 0, 0, 0, -0.25, 0, 1.5, 0, 0, -0.25, 0, 0, 1.5, 0, -0.25, 0, 0, 0, 1, 0]
    /// CSS saturate(0.5): luminance weights plus half of the remainder on the diagonal.
    static var saturationValues: [Double] {
        let (r, g, b) = (0.2126, 0.7152, 0.0722)
        let s = 0.5
        var m = [Double](repeating: 0, count: 20)
        let lum = [r, g, b]
        for row in 0..<3 {
            for column in 0..<3 {
                m[row * 5 + column] = lum[column] * (1 - s) + (row == column ? s : 0)
            }
        }
        m[18] = 1
        return m
    }
    static let matrixCases: [(String, [Double])] = [
        ("grayscale", grayscaleValues), ("sepia", sepiaValues), ("invert", invertValues),
        ("brightness", brightnessValues), ("contrast", contrastValues), ("saturation", saturationValues),
    ]

    @Test("color matrix presets follow their formulas (within 1 level)", arguments: matrixCases)
    func colorMatrix(name: String, values: [Double]) throws {
        let transformer: ColorMatrixTransformer = switch name {
        case "grayscale": .grayscale
        case "sepia": .sepia
        case "invert": .invert
        case "brightness": .brightness(0.2)
        case "contrast": .contrast(1.5)
        default: .saturation(0.5)
        }
        let source = Pictures.noise(width: 16, height: 16)
        let output = try WebImage(bitmap: source).transformed(by: transformer).bitmap
        for y in 0..<16 {
            for x in 0..<16 {
                let expected = Self.expectedMatrix(source[x, y], values)
                let got = output[x, y]
                for c in 0..<4 {
                    #expect(abs(Int(Self.component(got, c)) - Int(Self.component(expected, c))) <= 1, "\(name) (\(x), \(y))")
                }
            }
        }
        #expect(output.hasAlpha == source.hasAlpha)
    }

    @Test("grayscale gives equal channels; concatenation applies in order")
    func matrixComposition() throws {
        let source = Pictures.noise(width: 8, height: 8, alpha: false)
        let gray = try WebImage(bitmap: source).transformed(by: .grayscale).bitmap
        #expect(Pictures.pixels(gray).allSatisfy { $0.red == $0.green && $0.green == $0.blue })
        // Invert then brightness -1 is black; brightness -1 then invert is white.
        let a = try WebImage(bitmap: source).transformed(by: .colorMatrix(ColorMatrix.invert.concatenated(with: .brightness(-1)))).bitmap
        let b = try WebImage(bitmap: source).transformed(by: .colorMatrix(ColorMatrix.brightness(-1).concatenated(with: .invert))).bitmap
        #expect(Set(Pictures.pixels(a)) == [.black])
        #expect(Set(Pictures.pixels(b)) == [.white])
        #expect(ColorMatrix([1, 0, 0]) == .identity)
    }
}
