import WebImageCore

/// Exact pixel moves shared by the transformers: crop, paste, flip, quarter turns.
enum BitmapOperations {
    /// The `width` x `height` region at (`x`, `y`), which must lie inside `bitmap`.
    static func crop(_ bitmap: Bitmap, x: Int, y: Int, width: Int, height: Int) throws -> Bitmap {
        precondition(x >= 0 && y >= 0 && width >= 0 && height >= 0 && x + width <= bitmap.width && y + height <= bitmap.height)
        if x == 0, y == 0, width == bitmap.width, height == bitmap.height { return bitmap }
        let rowBytes = width * 4
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBytes { dst in
            bitmap.bytes.withUnsafeBytes { src in
                for row in 0..<height {
                    let from = src.baseAddress! + (y + row) * bitmap.bytesPerRow + x * 4
                    (dst.baseAddress! + row * rowBytes).copyMemory(from: from, byteCount: rowBytes)
                }
            }
        }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: bitmap.hasAlpha)
    }

    /// Copies `source` into `canvas` with its top left at (`x`, `y`), clipped to the canvas.
    static func copy(_ source: Bitmap, into canvas: inout Bitmap, x: Int, y: Int) {
        let left = max(0, x)
        let top = max(0, y)
        let right = min(canvas.width, x + source.width)
        let bottom = min(canvas.height, y + source.height)
        guard left < right, top < bottom else { return }
        let rowBytes = (right - left) * 4
        let canvasRow = canvas.bytesPerRow
        canvas.bytes.withUnsafeMutableBytes { dst in
            source.bytes.withUnsafeBytes { src in
                for row in top..<bottom {
                    let from = src.baseAddress! + (row - y) * source.bytesPerRow + (left - x) * 4
                    (dst.baseAddress! + row * canvasRow + left * 4).copyMemory(from: from, byteCount: rowBytes)
                }
            }
        }
    }

    /// A new tightly packed bitmap of `width` x `height` whose pixel (x, y) is the source pixel
    /// `map(x, y)`.
    static func remap(_ bitmap: Bitmap, width: Int, height: Int, _ map: (Int, Int) -> (Int, Int)) throws -> Bitmap {
        let rowBytes = width * 4
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBytes { dst in
            bitmap.bytes.withUnsafeBytes { src in
                let out = dst.baseAddress!
                let input = src.baseAddress!
                for y in 0..<height {
                    for x in 0..<width {
                        let (sx, sy) = map(x, y)
                        let pixel = input.loadUnaligned(fromByteOffset: sy * bitmap.bytesPerRow + sx * 4, as: UInt32.self)
                        out.storeBytes(of: pixel, toByteOffset: y * rowBytes + x * 4, as: UInt32.self)
                    }
                }
            }
        }
        return try Bitmap(width: width, height: height, bytes: bytes, hasAlpha: bitmap.hasAlpha)
    }

    /// Mirrors `bitmap` left-right and/or top-bottom.
    ///
    /// Rows without padding are flipped in place on a copy-on-write copy
    /// (``/WebImageCore/Bitmap/flip(horizontal:vertical:)``): one new bitmap, no zero-filled
    /// buffer; padded rows are remapped into a bitmap without padding, as the other operations
    /// return.
    static func flip(_ bitmap: Bitmap, horizontal: Bool, vertical: Bool) throws -> Bitmap {
        var flipped = bitmap
        try flip(&flipped, horizontal: horizontal, vertical: vertical)
        return flipped
    }

    /// Mirrors `bitmap` where it lies, as ``flip(_:horizontal:vertical:)`` does: rows without
    /// padding in place (no copy when the storage is not shared), padded rows remapped into a
    /// new bitmap without padding.
    static func flip(_ bitmap: inout Bitmap, horizontal: Bool, vertical: Bool) throws {
        let w = bitmap.width
        let h = bitmap.height
        if bitmap.bytesPerRow == w * 4 {
            bitmap.flip(horizontal: horizontal, vertical: vertical)
            return
        }
        bitmap = try remap(bitmap, width: w, height: h) { x, y in
            (horizontal ? w - 1 - x : x, vertical ? h - 1 - y : y)
        }
    }

    /// Rotates `bitmap` by `quarterTurns` x 90 degrees counterclockwise (as displayed), exactly.
    static func rotate(_ bitmap: Bitmap, quarterTurns: Int) throws -> Bitmap {
        let w = bitmap.width
        let h = bitmap.height
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: return try remap(bitmap, width: h, height: w) { x, y in (w - 1 - y, x) }
        case 2: return try flip(bitmap, horizontal: true, vertical: true)
        case 3: return try remap(bitmap, width: h, height: w) { x, y in (y, h - 1 - x) }
        default: return bitmap
        }
    }
}
