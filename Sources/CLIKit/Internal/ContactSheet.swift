import WebImageCore

/// A grid of images on one opaque bitmap: the demo's contact sheet.
///
/// Each cell is ``cellSize`` pixels square on a checkerboard (so transparency shows), holds its
/// image scaled to fit (aspect ratio kept, see ``fit(_:inside:)``, composited source-over) and
/// a number label in its top left corner that matches the demo's table. Cells run left to
/// right, top to bottom, ``columns`` to a row, ``gutter`` pixels apart.
struct ContactSheet: Sendable {
    /// The side of a cell in pixels.
    var cellSize = 160
    /// The space around and between cells in pixels.
    var gutter = 12
    /// Cells per row.
    var columns = 5
    /// The color behind the cells.
    var background = RGBAColor(red: 46, green: 48, blue: 56)

    /// The size of a sheet of `count` cells.
    func size(for count: Int) -> PixelSize {
        let columns = max(1, min(self.columns, count))
        let rows = max(1, (count + self.columns - 1) / self.columns)
        return PixelSize(width: gutter + columns * (cellSize + gutter), height: gutter + rows * (cellSize + gutter))
    }

    /// The top left corner of cell `index`.
    func origin(ofCell index: Int) -> (x: Int, y: Int) {
        (gutter + (index % columns) * (cellSize + gutter), gutter + (index / columns) * (cellSize + gutter))
    }

    /// Draws `cells` (label and first-frame bitmap) into a new sheet.
    /// - Throws: ``WebImageError/Code/invalidArgument`` for an empty image.
    func render(_ cells: [(label: String, bitmap: Bitmap)]) throws -> Bitmap {
        let size = size(for: cells.count)
        var sheet = try Bitmap(width: size.width, height: size.height, fill: background, hasAlpha: false)
        for (index, cell) in cells.enumerated() {
            let (left, top) = origin(ofCell: index)
            drawCheckerboard(into: &sheet, x: left, y: top)
            let fitted = try fit(cell.bitmap, inside: cellSize - 8)
            let x = left + (cellSize - fitted.width) / 2
            let y = top + (cellSize - fitted.height) / 2
            composite(fitted, over: &sheet, x: x, y: y)
            drawLabel(cell.label, into: &sheet, x: left, y: top)
        }
        return sheet
    }

    /// `bitmap` scaled to fit a `side` x `side` square: area averaging (premultiplied, so
    /// transparent pixels do not darken edges) when reducing, nearest neighbour when enlarging.
    ///
    /// Decision: the framework's resampler is exact but costs seconds for 22 images in a debug
    /// build (`swift run` builds debug); a preview needs neither its quality nor its cost.
    /// - Throws: ``WebImageError/Code/invalidArgument`` for an empty bitmap.
    func fit(_ bitmap: Bitmap, inside side: Int) throws -> Bitmap {
        guard bitmap.width > 0, bitmap.height > 0 else {
            throw WebImageError(.invalidArgument, "the contact sheet cannot show an empty \(bitmap.size) image")
        }
        let scale = min(Double(side) / Double(max(1, bitmap.width)), Double(side) / Double(max(1, bitmap.height)))
        let width = max(1, Int((Double(bitmap.width) * scale).rounded()))
        let height = max(1, Int((Double(bitmap.height) * scale).rounded()))
        var output = [UInt8](repeating: 0, count: width * height * 4)
        bitmap.bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let y0 = y * bitmap.height / height
                    let y1 = max(y0 + 1, (y + 1) * bitmap.height / height)
                    for x in 0..<width {
                        let x0 = x * bitmap.width / width
                        let x1 = max(x0 + 1, (x + 1) * bitmap.width / width)
                        var red = 0, green = 0, blue = 0, alpha = 0
                        for sy in y0..<y1 {
                            var offset = sy * bitmap.bytesPerRow + x0 * 4
                            for _ in x0..<x1 {
                                let a = Int(source[offset + 3])
                                red += Int(source[offset]) * a
                                green += Int(source[offset + 1]) * a
                                blue += Int(source[offset + 2]) * a
                                alpha += a
                                offset += 4
                            }
                        }
                        let count = (y1 - y0) * (x1 - x0)
                        let offset = (y * width + x) * 4
                        if alpha > 0 {
                            target[offset] = UInt8((red + alpha / 2) / alpha)
                            target[offset + 1] = UInt8((green + alpha / 2) / alpha)
                            target[offset + 2] = UInt8((blue + alpha / 2) / alpha)
                            target[offset + 3] = UInt8((alpha + count / 2) / count)
                        }
                    }
                }
            }
        }
        return try Bitmap(width: width, height: height, bytes: output, hasAlpha: bitmap.hasAlpha)
    }

    private func drawCheckerboard(into sheet: inout Bitmap, x left: Int, y top: Int) {
        let rowBytes = sheet.bytesPerRow
        let cellSize = cellSize
        sheet.bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<cellSize {
                var offset = (top + y) * rowBytes + left * 4
                for x in 0..<cellSize {
                    let light = (x / 8 + y / 8) % 2 == 0
                    pixels[offset] = light ? 250 : 222
                    pixels[offset + 1] = light ? 250 : 224
                    pixels[offset + 2] = light ? 250 : 228
                    pixels[offset + 3] = 255
                    offset += 4
                }
            }
        }
    }

    /// Source-over of straight-alpha `image` onto the opaque `sheet`.
    private func composite(_ image: Bitmap, over sheet: inout Bitmap, x left: Int, y top: Int) {
        let rowBytes = sheet.bytesPerRow
        image.bytes.withUnsafeBufferPointer { source in
            sheet.bytes.withUnsafeMutableBufferPointer { destination in
                for y in 0..<image.height {
                    var from = y * image.bytesPerRow
                    var to = (top + y) * rowBytes + left * 4
                    for _ in 0..<image.width {
                        let alpha = Int(source[from + 3])
                        if alpha == 255 {
                            destination[to] = source[from]
                            destination[to + 1] = source[from + 1]
                            destination[to + 2] = source[from + 2]
                        } else if alpha > 0 {
                            for channel in 0..<3 {
                                destination[to + channel] = UInt8((Int(source[from + channel]) * alpha + Int(destination[to + channel]) * (255 - alpha) + 127) / 255)
                            }
                        }
                        from += 4
                        to += 4
                    }
                }
            }
        }
    }

    private func drawLabel(_ label: String, into sheet: inout Bitmap, x left: Int, y top: Int) {
        let scale = 2
        let width = PixelFont.width(of: label, scale: scale) + 6
        let height = PixelFont.height(scale: scale) + 6
        for y in 0..<height {
            for x in 0..<width {
                sheet[left + x, top + y] = RGBAColor(red: 20, green: 22, blue: 28)
            }
        }
        PixelFont.draw(label, into: &sheet, x: left + 3, y: top + 3, scale: scale, color: .white)
    }
}
