import WebImageCore

extension ThumborRequest {
    /// The pixel work the request's filters ask for on a result of `outputSize` (the server's
    /// cost model, checked against ``ImageServerConfiguration/maximumFilterWork``): each pixel
    /// filter costs the output's pixels, the kernel filters the pixels times their taps:
    /// `blur(r)` `2 * (2r + 1)` (two passes of thumbor's cut kernel), `convolution` its items,
    /// `sharpen` 30 per channel it sharpens (5 levels of 3 taps across and down; 3 channels, or
    /// 1 with `luminance_only`); `fill(blur)` a blur of radius 50 over the canvas; `watermark`
    /// and `frame` twice the pixels; the filters that only set the format, quality or headers
    /// cost nothing. Saturates at `Int.max`.
    func filterWork(outputSize: PixelSize) -> Int {
        let pixels = max(1, outputSize.pixelCount ?? Int.max)
        var total = 0
        for filter in filters {
            let factor: Int
            switch filter {
            case .blur(let radius, _):
                // The renderer caps the radius as the parser does.
                factor = radius > 0 ? 2 * (2 * min(radius, ThumborFilterParser.maximumBlurRadius) + 1) : 0
            case .convolution(let kernel, _, _):
                factor = kernel.count
            case .sharpen(_, _, let luminanceOnly):
                factor = luminanceOnly ? 30 : 90
            case .equalize, .noise, .rgb, .colorize, .curve:
                factor = 1
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
