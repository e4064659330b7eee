import WebImageCore

/// thumbor's `frame(url)`: an image framed by a nine-patch (`thumbor/filters/frame.py` and its
/// `_nine_patch` extension), as that code is written to work.
///
/// A nine-patch is an image with a one-pixel border of markers: opaque black
/// (`0, 0, 0, 255`) pixels in the top row mark the columns that stretch, in the left column the
/// rows that stretch; in the bottom row and the right column they mark the content area, whose
/// distance from the edges is the padding. The frame:
/// 1. pads the image with opaque white by the padding (left, top, right, bottom);
/// 2. cuts the nine-patch (inside its border) into rows and columns, alternating between fixed
///    and stretching runs; fixed runs keep their size, stretching runs share what the padded
///    image has beyond the fixed ones, each in proportion to its own size (rounded half up);
/// 3. draws each cell over the padded image, resampled bilinearly (thumbor's sampling: a cell of
///    `s` source pixels drawn on `t` target pixels samples at `(s - 1) / t` steps), and
///    composited "over" the image's colours; the image's alpha is kept as it was. A cell that
///    would reach outside the image (a nine-patch whose fixed parts are larger than the image)
///    is not drawn.
///
/// Decision: thumbor 7.8 reads the pixel layout of both bitmaps through a wrong pointer
/// (`(char *)PyUnicode_AsUTF8String(mode)` is a Python object's address, not its text), so it
/// takes every byte for a one-channel pixel: it never draws the frame, and pads the image by
/// amounts read from unrelated bytes. This is what the filter's code is written to do with
/// 4-byte RGBA pixels.
enum ThumborNinePatch {
    /// The padding a nine-patch asks for, in pixels.
    struct Padding: Hashable, Sendable {
        var left = 0, top = 0, right = 0, bottom = 0
    }

    /// Whether the pixel at `x`, `y` is a marker: opaque black.
    private static func isMarker(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> Bool {
        let offset = y * bitmap.bytesPerRow + x * 4
        return bitmap.bytes[offset] == 0 && bitmap.bytes[offset + 1] == 0 && bitmap.bytes[offset + 2] == 0 && bitmap.bytes[offset + 3] == 255
    }

    /// The padding of `ninePatch`: from its first and last markers in the bottom row (left and
    /// right) and in the right column (top and bottom), corner pixels excluded; 0 where a side
    /// has no marker.
    static func padding(of ninePatch: Bitmap) -> Padding {
        var padding = Padding()
        let width = ninePatch.width, height = ninePatch.height
        guard width >= 3, height >= 3 else { return padding }
        if let first = (1..<(width - 1)).first(where: { isMarker(ninePatch, $0, height - 1) }) { padding.left = first - 1 }
        if let last = (1..<(width - 1)).last(where: { isMarker(ninePatch, $0, height - 1) }) { padding.right = width - 2 - last }
        if let first = (1..<(height - 1)).first(where: { isMarker(ninePatch, width - 1, $0) }) { padding.top = first - 1 }
        if let last = (1..<(height - 1)).last(where: { isMarker(ninePatch, width - 1, $0) }) { padding.bottom = height - 2 - last }
        return padding
    }

    /// The size of an image of `imageSize` padded by `ninePatch`'s padding.
    static func framedSize(of imageSize: PixelSize, with ninePatch: Bitmap) -> PixelSize {
        let padding = padding(of: ninePatch)
        return PixelSize(width: imageSize.width + padding.left + padding.right, height: imageSize.height + padding.top + padding.bottom)
    }

    /// `image` padded by `ninePatch`'s padding and framed by it.
    static func frame(_ image: Bitmap, with ninePatch: Bitmap) throws -> Bitmap {
        var target = try padded(image, by: padding(of: ninePatch))
        try draw(ninePatch, over: &target)
        return target
    }

    /// `image` on an opaque white canvas larger by `padding`, its pixels (alpha included)
    /// copied at the left and top padding.
    static func padded(_ image: Bitmap, by padding: Padding) throws -> Bitmap {
        guard padding != Padding() else { return image }
        var canvas = try Bitmap(width: image.width + padding.left + padding.right, height: image.height + padding.top + padding.bottom,
                                fill: .white, hasAlpha: image.hasAlpha)
        let rowBytes = image.width * 4
        let canvasRow = canvas.bytesPerRow, imageRow = image.bytesPerRow
        image.bytes.withUnsafeBufferPointer { source in
            canvas.bytes.withUnsafeMutableBufferPointer { target in
                for y in 0..<image.height {
                    let from = y * imageRow, to = (y + padding.top) * canvasRow + padding.left * 4
                    target.baseAddress!.advanced(by: to).update(from: source.baseAddress!.advanced(by: from), count: rowBytes)
                }
            }
        }
        return canvas
    }

    /// One run of rows or columns of the nine-patch: where it starts (in nine-patch pixels),
    /// how long it is, and whether it stretches.
    private struct Run {
        var start: Int
        var length: Int
        var stretches: Bool
    }

    /// The runs along the top row (`horizontal`) or the left column, inside the border.
    private static func runs(of ninePatch: Bitmap, horizontal: Bool) -> [Run] {
        let length = horizontal ? ninePatch.width : ninePatch.height
        var runs: [Run] = []
        var start = 1
        while start < length - 1 {
            let stretches = horizontal ? isMarker(ninePatch, start, 0) : isMarker(ninePatch, 0, start)
            var end = start + 1
            while end < length - 1, (horizontal ? isMarker(ninePatch, end, 0) : isMarker(ninePatch, 0, end)) == stretches { end += 1 }
            runs.append(Run(start: start, length: end - start, stretches: stretches))
            start = end
        }
        return runs
    }

    /// The target lengths of `runs` on a target of `targetLength`: fixed runs keep theirs,
    /// stretching ones share what is left (at least 0) in proportion, each rounded half up.
    private static func targetLengths(_ runs: [Run], targetLength: Int) -> [Int] {
        let stretching = runs.filter(\.stretches).reduce(0) { $0 + $1.length }
        let fixed = runs.reduce(0) { $0 + $1.length } - stretching
        let spare = max(0, targetLength - fixed)
        return runs.map { run in
            run.stretches ? Int(Double(run.length) / Double(stretching) * Double(spare) + 0.5) : run.length
        }
    }

    /// Draws the cells of `ninePatch` over `target` (see the type's summary).
    static func draw(_ ninePatch: Bitmap, over target: inout Bitmap) throws {
        guard ninePatch.width >= 3, ninePatch.height >= 3 else { return }
        let columns = runs(of: ninePatch, horizontal: true), rows = runs(of: ninePatch, horizontal: false)
        let columnWidths = targetLengths(columns, targetLength: target.width)
        let rowHeights = targetLengths(rows, targetLength: target.height)
        var targetY = 0
        for (row, height) in zip(rows, rowHeights) {
            try BlockingWorkExecutor.checkCurrentJobCancellation()
            var targetX = 0
            for (column, width) in zip(columns, columnWidths) {
                paste(ninePatch, cell: (column.start, row.start, column.length, row.length), over: &target, at: (targetX, targetY, width, height))
                targetX += width
            }
            targetY += height
        }
    }

    /// thumbor's `paste_rectangle`: the nine-patch's cell (`x`, `y`, `width`, `height`)
    /// stretched over the target's rectangle, bilinearly, composited over the target's colours
    /// (its alpha untouched); nothing when the rectangle reaches outside the target.
    private static func paste(_ ninePatch: Bitmap, cell: (x: Int, y: Int, width: Int, height: Int), over target: inout Bitmap, at place: (x: Int, y: Int, width: Int, height: Int)) {
        guard place.x + place.width <= target.width, place.y + place.height <= target.height, place.width > 0, place.height > 0 else { return }
        let xRatio = (Double(cell.width) - 1) / Double(place.width)
        let yRatio = (Double(cell.height) - 1) / Double(place.height)
        let sourceRow = ninePatch.bytesPerRow, targetRow = target.bytesPerRow
        let lastX = ninePatch.width - 1, lastY = ninePatch.height - 1
        ninePatch.bytes.withUnsafeBufferPointer { source in
            target.bytes.withUnsafeMutableBufferPointer { pixels in
                // thumbor's `interpolate_subpixel`: exact when the four neighbours agree.
                func sample(_ x: Int, _ y: Int, _ xFraction: Double, _ yFraction: Double, _ channel: Int) -> Int {
                    let right = min(x + 1, lastX), below = min(y + 1, lastY)
                    let a = Int(source[y * sourceRow + x * 4 + channel]), b = Int(source[y * sourceRow + right * 4 + channel])
                    let c = Int(source[below * sourceRow + x * 4 + channel]), d = Int(source[below * sourceRow + right * 4 + channel])
                    if a == b, a == c, a == d { return a }
                    let combined = Double(a) * (1 - xFraction) * (1 - yFraction)
                        + Double(b) * (0 + xFraction) * (1 - yFraction)
                        + Double(c) * (1 - xFraction) * (0 + yFraction)
                        + Double(d) * (0 + xFraction) * (0 + yFraction)
                    return Int(ThumborWatermarkDrawing.truncatedChannel(combined))
                }
                for y in 0..<place.height {
                    let sourceY = Int(yRatio * Double(y))
                    let yFraction = yRatio * Double(y) - Double(sourceY)
                    for x in 0..<place.width {
                        let sourceX = Int(xRatio * Double(x))
                        let xFraction = xRatio * Double(x) - Double(sourceX)
                        let sx = cell.x + sourceX, sy = cell.y + sourceY
                        let offset = (place.y + y) * targetRow + (place.x + x) * 4
                        let sourceTransparency = Double(255 - sample(sx, sy, xFraction, yFraction, 3)) / 255.0
                        let targetTransparency = Double(255 - Int(pixels[offset + 3])) / 255.0
                        for channel in 0..<3 {
                            let value = sample(sx, sy, xFraction, yFraction, channel)
                            let over = ((1.0 - sourceTransparency) * Double(value))
                                + ((1.0 - targetTransparency) * Double(pixels[offset + channel]) * sourceTransparency)
                            pixels[offset + channel] = ThumborWatermarkDrawing.truncatedChannel(over)
                        }
                    }
                }
            }
        }
    }
}
