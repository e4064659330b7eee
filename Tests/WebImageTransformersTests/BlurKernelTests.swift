import Testing
@testable import WebImageTransformers
import WebImageCore

/// The box-blur kernel's internal paths (reached in production only by large images).
@Suite struct BlurKernelTests {
    @Test("the streaming and the full-buffer vertical paths give the same pixels")
    func pathsAgree() throws {
        let source = Pictures.noise(width: 23, height: 90)
        for sigma in [3.0, 5.5, 9.0] {
            let kernel = GaussianBlurKernel(sigma: sigma)
            #expect(source.height >= 3 * (2 * kernel.radius + 4))
            let streamed = try kernel.apply(to: source)
            let buffered = try kernel.apply(to: source, forceBuffered: true)
            let worst = zip(streamed.bytes, buffered.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "sigma \(sigma)")  // float summation order only
        }
    }

    @Test("the extended boxes have exactly the Gaussian's variance", arguments: [3.0, 3.3, 4.7, 10, 57.25])
    func variance(sigma: Double) {
        let kernel = GaussianBlurKernel(sigma: sigma)
        let r = Double(kernel.radius)
        let alpha = Double(kernel.edgeWeight)
        let boxVariance = (r * (r + 1) * (2 * r + 1) / 3 + 2 * alpha * (r + 1) * (r + 1)) / (2 * r + 1 + 2 * alpha)
        #expect(abs(3 * boxVariance - sigma * sigma) < 1e-4 * sigma * sigma)
        #expect(alpha >= 0 && alpha < 1)
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
}
