import Foundation
import Testing
import WebImageTestSupport
@testable import WebImageTransformers
import WebImageCore

/// The box-blur kernel: its choice of boxes against a true Gaussian, and its internal paths
/// (reached in production only by large images).
@Suite(.onOwnThreads) struct BlurKernelTests {
    @Test("the streaming and the full-buffer vertical paths give the same pixels")
    func pathsAgree() throws {
        let source = Pictures.noise(width: 23, height: 150)
        for sigma in [3.0, 5.5, 9.0, 12.0] {
            let kernel = GaussianBlurKernel(sigma: sigma)
            let rings = kernel.widths.map { $0 + 3 }.reduce(0, +)
            #expect(source.height >= rings, "sigma \(sigma) must stream")
            let streamed = try kernel.apply(to: source)
            let buffered = try kernel.apply(to: source, forceBuffered: true)
            #expect(streamed == buffered, "sigma \(sigma)")  // exact integer sums either way
        }
    }

    @Test("the boxes' standard deviation is within 2% of sigma (3% below 5) and their response within the documented tolerance")
    func boxesMatchTheGaussian() {
        for step in 0...148 {
            let sigma = 3 + Double(step) * 0.25
            let kernel = GaussianBlurKernel(sigma: sigma)
            #expect(kernel.widths.count == (sigma < 10 ? 4 : 3))
            #expect(kernel.widths.allSatisfy { $0 % 2 == 1 }, "sigma \(sigma): \(kernel.widths)")
            let relative = abs(kernel.standardDeviation / sigma - 1)
            #expect(relative <= (sigma < 5 ? 0.03 : 0.02), "sigma \(sigma): \(kernel.widths)")
            // The response, computed here from the definition: a single pixel through each box.
            let reach = max(kernel.widths.map { ($0 - 1) / 2 }.reduce(0, +), Int(5 * sigma) + 1)
            var response = [Double](repeating: 0, count: 2 * reach + 1)
            response[reach] = 1
            for width in kernel.widths {
                let r = (width - 1) / 2
                var next = response
                for i in response.indices {
                    var total = 0.0
                    for j in max(0, i - r)...min(response.count - 1, i + r) { total += response[j] }
                    next[i] = total / Double(width)
                }
                response = next
            }
            let gaussian = Reference.gaussian(sigma: sigma, reach: reach)
            let worst = zip(response, gaussian).map { abs($0 - $1) }.max()!
            let tolerance = sigma < 5 ? 0.008 : (sigma < 10 ? 0.005 : 0.0025)
            #expect(worst <= tolerance, "sigma \(sigma): \(kernel.widths) differ by \(worst)")
        }
    }

    @Test("the public blur of a single pixel follows the Gaussian within the documented tolerance", arguments: [5.0, 7.5, 10.0, 16.0, 25.0])
    func singlePixel(radius: Double) throws {
        // One row wide enough that the mirrored edges add nothing visible.
        let width = Int(12 * radius) | 1
        var line = try Bitmap(width: width, height: 1, fill: .black, hasAlpha: false)
        line[width / 2, 0] = .white
        let output = try WebImage(bitmap: line).transformed(by: .blur(radius: radius)).bitmap
        let gaussian = Reference.gaussian(sigma: radius, reach: width / 2)
        let tolerance = (radius < 10 ? 0.005 : 0.0025) * 255 + 0.5
        for x in 0..<width {
            #expect(abs(Double(output[x, 0].red) - 255 * gaussian[x]) <= tolerance, "x \(x)")
        }
    }

    @Test("a 2-D blur at radius 10 agrees with a straightforward premultiplied Gaussian with mirrored edges")
    func twoDimensional() throws {
        let sigma = 10.0
        let size = PixelSize(width: 64, height: 61)
        #expect(!BlurTransformer.usesDirectConvolution(radius: sigma, size: size))
        let source = TestBitmaps.gradient(width: size.width, height: size.height)
        let output = try WebImage(bitmap: source).transformed(by: .blur(radius: sigma)).bitmap
        // Separable in Double: rows, then columns, from the definition.
        let reach = Int(4 * sigma) + 1
        let kernel = Reference.gaussian(sigma: sigma, reach: reach)
        func mirror(_ i: Int, _ n: Int) -> Int {
            var m = i % (2 * n)
            if m < 0 { m += 2 * n }
            return m < n ? m : 2 * n - 1 - m
        }
        let w = size.width, h = size.height
        // Premultiplied channels, [y][x][c] flattened.
        var premultiplied = [Double](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let p = source[x, y]
                let a = Double(p.alpha)
                let base = (y * w + x) * 4
                premultiplied[base] = Double(p.red) * a
                premultiplied[base + 1] = Double(p.green) * a
                premultiplied[base + 2] = Double(p.blue) * a
                premultiplied[base + 3] = a
            }
        }
        var rows = [Double](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                for k in -reach...reach {
                    let weight = kernel[k + reach]
                    let from = (y * w + mirror(x + k, w)) * 4
                    for c in 0..<4 { rows[(y * w + x) * 4 + c] += weight * premultiplied[from + c] }
                }
            }
        }
        var worst = 0.0
        for y in 0..<h {
            for x in 0..<w {
                var sum = [0.0, 0.0, 0.0, 0.0]
                for k in -reach...reach {
                    let weight = kernel[k + reach]
                    let from = (mirror(y + k, h) * w + x) * 4
                    for c in 0..<4 { sum[c] += weight * rows[from + c] }
                }
                let e = Reference.unpremultiplied(sum[0], sum[1], sum[2], sum[3])
                let o = output[x, y]
                worst = max(worst, abs(Double(o.red) - e.r), abs(Double(o.green) - e.g))
                worst = max(worst, abs(Double(o.blue) - e.b), abs(Double(o.alpha) - e.a))
            }
        }
        #expect(worst <= 2.5, "worst difference \(worst)")
    }

    @Test("the box path keeps the mean, a solid color, and never pulls transparent white into red")
    func edgesAndAlpha() throws {
        for sigma in [3.0, 10.0, 40.0] {
            let kernel = GaussianBlurKernel(sigma: sigma)
            // Mean of every channel on an opaque noise image (mirrored edges keep the sum).
            let source = Pictures.noise(width: 37, height: 29, alpha: false)
            let output = try kernel.apply(to: source)
            for channel in 0..<3 {
                let mean = { (b: Bitmap) -> Double in
                    let values = Pictures.pixels(b).map { Double(PixelTransformerTests.component($0, channel)) }
                    return values.reduce(0, +) / Double(values.count)
                }
                #expect(abs(mean(source) - mean(output)) < 0.5, "sigma \(sigma) channel \(channel)")
            }
            #expect(Set(Pictures.pixels(output).map(\.alpha)) == [255])
            // A solid translucent color stays exactly itself.
            let solid = try Bitmap(width: 50, height: 70, fill: RGBAColor(red: 12, green: 34, blue: 56, alpha: 78))
            #expect(try kernel.apply(to: solid) == solid, "sigma \(sigma)")
            // Premultiplied: no white halo, and the edge fades in alpha only.
            let halo = try kernel.apply(to: Pictures.redNextToTransparentWhite(width: 40, height: 20, split: 20))
            var partial = 0
            for pixel in Pictures.pixels(halo) where pixel.alpha > 0 {
                #expect(pixel.red == 255 && pixel.green == 0 && pixel.blue == 0, "sigma \(sigma): \(pixel)")
                if pixel.alpha < 255 { partial += 1 }
            }
            #expect(partial >= 20, "sigma \(sigma)")
        }
    }

    @Test("small or thin frames choose the direct convolution, large ones the boxes")
    func choice() {
        #expect(BlurTransformer.usesDirectConvolution(radius: 2.9, size: PixelSize(width: 4000, height: 3000)))
        #expect(!BlurTransformer.usesDirectConvolution(radius: 3, size: PixelSize(width: 4000, height: 3000)))
        #expect(BlurTransformer.usesDirectConvolution(radius: 10, size: PixelSize(width: 50, height: 40)))
        #expect(!BlurTransformer.usesDirectConvolution(radius: 10, size: PixelSize(width: 30000, height: 8)))
    }

    @Test("a long thin strip on the box path keeps a solid color and the mean")
    func thinStrip() throws {
        let solid = try Bitmap(width: 30000, height: 8, fill: RGBAColor(red: 12, green: 34, blue: 56, alpha: 78))
        let output = try WebImage(bitmap: solid).transformed(by: .blur(radius: 10)).bitmap
        #expect(Set(output.bytes) == Set(solid.bytes))
        #expect(output == solid)
    }

    @Test("huge radii shift sums right instead of overflowing: a solid color survives radius 1000")
    func hugeRadius() throws {
        let kernel = GaussianBlurKernel(sigma: 1000)
        let solid = try Bitmap(width: 9, height: 7, fill: RGBAColor(red: 200, green: 100, blue: 50, alpha: 250))
        #expect(try kernel.apply(to: solid) == solid)
        let noise = try kernel.apply(to: Pictures.noise(width: 9, height: 7))
        // Everything becomes (nearly) the premultiplied mean: every pixel within 2 levels of the first.
        let first = noise[0, 0]
        for pixel in Pictures.pixels(noise) {
            #expect(abs(Int(pixel.red) - Int(first.red)) <= 2 && abs(Int(pixel.green) - Int(first.green)) <= 2, "\(pixel) vs \(first)")
            #expect(abs(Int(pixel.blue) - Int(first.blue)) <= 2 && abs(Int(pixel.alpha) - Int(first.alpha)) <= 2, "\(pixel) vs \(first)")
        }
    }
}
