import WebImageCore

/// A grid of images on one opaque bitmap: the demo's contact sheet.
///
/// Each cell is ``cellSize`` pixels square on a checkerboard (so transparency shows), holds its
/// image scaled to fit (aspect ratio kept, Lanczos-3, composited source-over) and a `#N`
/// label in its top left corner that matches the demo's table. Cells run left to right, top to
/// bottom, ``columns`` to a row, ``gutter`` pixels apart.
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
    /// - Throws: ``WebImageError/Code/invalidArgument`` from resampling (an empty image).
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

    private func fit(_ bitmap: Bitmap, inside side: Int) throws -> Bitmap {
        let scale = min(Double(side) / Double(max(1, bitmap.width)), Double(side) / Double(max(1, bitmap.height)))
        let target = PixelSize(width: max(1, Int((Double(bitmap.width) * scale).rounded())), height: max(1, Int((Double(bitmap.height) * scale).rounded())))
        return try bitmap.resampled(to: target)
    }

    private func drawCheckerboard(into sheet: inout Bitmap, x left: Int, y top: Int) {
        let light = RGBAColor(red: 250, green: 250, blue: 250)
        let dark = RGBAColor(red: 222, green: 224, blue: 228)
        for y in 0..<cellSize {
            for x in 0..<cellSize {
                sheet[left + x, top + y] = (x / 8 + y / 8) % 2 == 0 ? light : dark
            }
        }
    }

    /// Source-over of straight-alpha `image` onto the opaque `sheet`.
    private func composite(_ image: Bitmap, over sheet: inout Bitmap, x left: Int, y top: Int) {
        for y in 0..<image.height {
            for x in 0..<image.width {
                let source = image[x, y]
                guard source.alpha > 0 else { continue }
                if source.alpha == 255 {
                    sheet[left + x, top + y] = RGBAColor(red: source.red, green: source.green, blue: source.blue)
                    continue
                }
                let destination = sheet[left + x, top + y]
                let alpha = Int(source.alpha)
                func blend(_ s: UInt8, _ d: UInt8) -> UInt8 {
                    UInt8((Int(s) * alpha + Int(d) * (255 - alpha) + 127) / 255)
                }
                sheet[left + x, top + y] = RGBAColor(
                    red: blend(source.red, destination.red),
                    green: blend(source.green, destination.green),
                    blue: blend(source.blue, destination.blue)
                )
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
