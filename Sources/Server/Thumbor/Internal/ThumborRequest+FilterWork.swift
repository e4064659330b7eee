import WebImageCore
import WebImageTransformers

extension ThumborRequest {
    /// The pixel work the request's filters ask for on a result of `outputSize` (the server's
    /// cost model, checked against ``ImageServerConfiguration/maximumFilterWork``): each pixel
    /// filter costs the output's pixels, `blur` the pixels times its radius (its deviation, as
    /// the renderer uses it), `fill(blur)` a blur of radius 50 over the canvas, `watermark` and
    /// `frame` twice the pixels; the filters that only set the format, quality or headers cost
    /// nothing. Saturates at `Int.max`.
    func filterWork(outputSize: PixelSize) -> Int {
        let pixels = max(1, outputSize.pixelCount ?? Int.max)
        var total = 0
        for filter in filters {
            let factor: Int
            switch filter {
            case .blur(let radius, let sigma):
                let deviation = min(BlurTransformer.maximumRadius, sigma.flatMap { $0 > 0 ? $0 : nil } ?? Double(radius))
                factor = deviation > 0 ? Int(deviation.rounded(.up)) : 0
            case .fill(let color, _):
                factor = ThumborColor(color).map { if case .blur = $0 { 51 } else { 1 } } ?? 1
            case .grayscale, .rotate, .roundCorner, .backgroundColor, .brightness, .contrast, .saturation:
                factor = 1
            case .watermark, .frame:
                // A watermark's tiles, a frame's padding and cells: about twice the output.
                factor = 2
            case .proportion:
                factor = 1
            case .format, .quality, .noUpscale, .upscale, .stretch, .maxBytes, .maxAge, .stripExif, .stripICC, .extractFocal, .autoJPG:
                factor = 0
            }
            let (cost, overflow) = pixels.multipliedReportingOverflow(by: factor)
            let (sum, overflowed) = total.addingReportingOverflow(overflow ? Int.max : cost)
            total = overflowed ? Int.max : sum
        }
        return total
    }
}
