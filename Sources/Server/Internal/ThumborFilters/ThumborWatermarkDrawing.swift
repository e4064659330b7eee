import WebImageCore
import WebImageTransformers

/// thumbor 7.8's `watermark(...)` on bitmaps (`thumbor/filters/watermark.py`, its `_alpha` and
/// `_composite` extensions), with thumbor's arithmetic, step for step:
/// 1. the watermark's alpha is lowered by `255 * alpha / 100` (integer division), at least 0;
/// 2. with a width or height ratio, it is resized (Lanczos, as Pillow) to fit the box the ratios
///    give (``scaledSize(of:on:widthRatio:heightRatio:)``);
/// 3. it is pasted at the positions ``origins(of:on:x:y:)`` gives (one, or a row, column or grid
///    of tiles for `repeat`), each composited over the image (``composite(_:over:x:y:)``).
///
/// The image keeps its size; pixels outside it are cut off.
enum ThumborWatermarkDrawing {
    /// The most tiles thumbor draws in a grid before it spreads 6 x 6 over the image.
    static let maximumGridTiles = 100

    /// The watermark `watermark` draws from its image `mark` on an image of `imageSize`: its
    /// alpha lowered, resized by the ratios (steps 1 and 2).
    /// - Parameter maximumSide: The largest side the resized watermark may have.
    /// - Throws: ``ServingFailure`` `400` when the ratios ask for a watermark over `maximumSide`;
    ///   a ``/WebImageCore/WebImageError`` from the resize.
    static func prepared(_ watermark: ThumborWatermark, mark: Bitmap, imageSize: PixelSize, maximumSide: Int) throws -> Bitmap {
        var mark = lowered(mark, by: watermark.alpha)
        if let size = scaledSize(of: mark.size, on: imageSize, widthRatio: watermark.widthRatio, heightRatio: watermark.heightRatio) {
            guard size.width <= maximumSide, size.height <= maximumSide else {
                throw ServingFailure(400, "the watermark would be resized to \(size), over the limit of \(maximumSide) pixels per side")
            }
            if size != mark.size {
                mark = try ResizingTransformer(size: size, mode: .fill).transform(WebImage(bitmap: mark), forKey: "").bitmap
            }
        }
        return mark
    }

    /// `image` with the prepared watermark `mark` pasted at the places `x` and `y` give
    /// (step 3).
    static func draw(_ mark: Bitmap, on image: Bitmap, x: ThumborWatermark.Position, y: ThumborWatermark.Position) throws -> Bitmap {
        var output = image
        for origin in origins(of: mark.size, on: image.size, x: x, y: y) {
            try BlockingWorkExecutor.checkCurrentJobCancellation()
            composite(mark, over: &output, x: origin.x, y: origin.y)
        }
        return output
    }

    /// thumbor's `_alpha`: every alpha value lowered by `255 * alpha / 100` (truncated), at
    /// least 0. The result has an alpha channel.
    static func lowered(_ mark: Bitmap, by alpha: Int) -> Bitmap {
        var output = mark
        output.hasAlpha = true
        let delta = 255 * max(0, alpha) / 100
        guard delta > 0 else { return output }
        let width = mark.width, height = mark.height, row = mark.bytesPerRow
        output.bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                var offset = y * row + 3
                for _ in 0..<width {
                    pixels[offset] = UInt8(max(0, Int(pixels[offset]) - delta))
                    offset += 4
                }
            }
        }
        return output
    }

    /// thumbor's `calc_watermark_size`: with a width ratio, the box is that percentage of the
    /// image's width (and with a height ratio, of its height); a missing side follows the
    /// watermark's aspect ratio; the watermark fits the box, keeping its aspect ratio (Python's
    /// floats and `round`, half to even). `nil` without ratios; each side at least 1.
    static func scaledSize(of mark: PixelSize, on image: PixelSize, widthRatio: Int?, heightRatio: Int?) -> PixelSize? {
        guard widthRatio != nil || heightRatio != nil else { return nil }
        let markWidth = Double(mark.width), markHeight = Double(mark.height)
        var maximumWidth = widthRatio.map { Double(image.width) * (Double($0) / 100.0) }
        var maximumHeight = heightRatio.map { Double(image.height) * (Double($0) / 100.0) }
        if maximumWidth == nil, let height = maximumHeight { maximumWidth = markWidth * height / markHeight }
        if maximumHeight == nil, let width = maximumWidth { maximumHeight = markHeight * width / markWidth }
        guard let boxWidth = maximumWidth, let boxHeight = maximumHeight, boxWidth > 0, boxHeight > 0 else { return nil }
        let width: Double, height: Double
        if markWidth / boxWidth >= markHeight / boxHeight {
            height = (markHeight * boxWidth / markWidth).rounded(.toNearestOrEven)
            width = boxWidth.rounded(.toNearestOrEven)
        } else {
            height = boxHeight.rounded(.toNearestOrEven)
            width = (markWidth * boxHeight / markHeight).rounded(.toNearestOrEven)
        }
        return PixelSize(width: clampedSide(width), height: clampedSide(height))
    }

    /// A side computed in floating point as a pixel count: at least 1, at most 1,000,000,000.
    private static func clampedSide(_ value: Double) -> Int {
        Int(min(max(value, 1), 1_000_000_000))
    }

    /// One axis of thumbor's placement: the offsets of the tiles along it.
    private enum Axis {
        /// One tile at this offset.
        case single(Int)
        /// `repeat`: this many tiles, and the pixels left between them (thumbor's `divmod`).
        case tiles(count: Int, spare: Int)
    }

    /// thumbor's placement along one axis of `length` for a watermark of `size`.
    private static func axis(_ position: ThumborWatermark.Position, length: Int, size: Int) -> Axis {
        // `Np` is `round(length * N / 100 + 0.00001)` pixels, then read as `N` or `-N`.
        func percentage(_ value: Int) -> Int {
            Int(min(max((Double(length) * Double(value) / 100 + 1e-5).rounded(.toNearestOrEven), -1e15), 1e15))
        }
        switch position {
        case .offset(let value): return .single(value)
        case .percent(let value): return .single(percentage(value))
        case .fromEnd(let value): return .single(length - size - value)
        case .percentFromEnd(let value): return .single(length - size - percentage(value))
        case .center: return .single(Int(Double(length - size) / 2))
        case .repeat:
            guard Double(length) / Double(size) >= 2 else {
                // Narrower than two watermarks: as many as cover it, 10 pixels apart.
                return .tiles(count: (length + size - 1) / size, spare: 10)
            }
            return .tiles(count: length / size, spare: length % size)
        }
    }

    /// Where thumbor pastes a watermark of `mark` on an image of `image` (top-left corners,
    /// possibly outside the image): one place, or for `repeat` along an axis tiles from the
    /// edge with the spare pixels shared between them (`spare // (max(count, 2) - 1)` apart);
    /// a grid of more than ``maximumGridTiles`` is cut to at most 6 x 6 spread over the image.
    static func origins(of mark: PixelSize, on image: PixelSize, x: ThumborWatermark.Position, y: ThumborWatermark.Position) -> [(x: Int, y: Int)] {
        var horizontal = axis(x, length: image.width, size: mark.width)
        var vertical = axis(y, length: image.height, size: mark.height)
        if case .tiles(let columns, _) = horizontal, case .tiles(let rows, _) = vertical, columns * rows > maximumGridTiles {
            let fewerColumns = min(6, columns), fewerRows = min(6, rows)
            horizontal = .tiles(count: fewerColumns, spare: image.width - fewerColumns * mark.width)
            vertical = .tiles(count: fewerRows, spare: image.height - fewerRows * mark.height)
        }
        func offsets(_ axis: Axis, size: Int) -> [Int] {
            switch axis {
            case .single(let offset):
                return [offset]
            case .tiles(let count, let spare):
                let gap = floorDivide(spare, max(count, 2) - 1)
                return (0..<count).map { $0 * gap + $0 * size }
            }
        }
        let columns = offsets(horizontal, size: mark.width), rows = offsets(vertical, size: mark.height)
        // thumbor pastes column by column.
        return columns.flatMap { column in rows.map { (x: column, y: $0) } }
    }

    /// Python's `//` on integers.
    private static func floorDivide(_ dividend: Int, _ divisor: Int) -> Int {
        let quotient = dividend / divisor
        return (dividend % divisor != 0 && (dividend < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// thumbor's `_composite` with `merge`: `mark` over `image` with its top-left corner at
    /// `x`, `y`, both with straight alpha. With `t` the transparency (`255 - alpha`) of each,
    /// the result's alpha is `255 - 255 t1 t2` and each colour is the "over" of the two divided
    /// by the result's opacity; every value truncated, as thumbor's C does. An opaque image
    /// stays opaque.
    static func composite(_ mark: Bitmap, over image: inout Bitmap, x: Int, y: Int) {
        let left = max(0, x), top = max(0, y)
        let right = min(image.width, x + mark.width), bottom = min(image.height, y + mark.height)
        guard left < right, top < bottom else { return }
        let imageRow = image.bytesPerRow, markRow = mark.bytesPerRow
        mark.bytes.withUnsafeBufferPointer { marks in
            image.bytes.withUnsafeMutableBufferPointer { pixels in
                for row in top..<bottom {
                    var target = row * imageRow + left * 4
                    var source = (row - y) * markRow + (left - x) * 4
                    for _ in left..<right {
                        let imageTransparency = Double(255 - Int(pixels[target + 3])) / 255.0
                        let markTransparency = Double(255 - Int(marks[source + 3])) / 255.0
                        var delta = markTransparency * imageTransparency
                        let alpha = 255.0 * delta
                        delta = 1.0 - delta
                        delta = delta <= 1.0e-12 ? 1.0 : 1.0 / delta
                        for channel in 0..<3 {
                            let over = ((1.0 - markTransparency) * Double(marks[source + channel]))
                                + ((1.0 - imageTransparency) * Double(pixels[target + channel]) * markTransparency)
                            pixels[target + channel] = truncatedChannel(delta * over)
                        }
                        pixels[target + 3] = truncatedChannel(255.0 - alpha)
                        target += 4
                        source += 4
                    }
                }
            }
        }
    }

    /// thumbor's `ADJUST_COLOR_DOUBLE`: clamped to 0...255, truncated.
    static func truncatedChannel(_ value: Double) -> UInt8 {
        UInt8(value > 255.0 ? 255 : (value < 0.0 ? 0 : Int(value)))
    }
}
