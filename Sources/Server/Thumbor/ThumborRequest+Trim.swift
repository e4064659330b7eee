public import WebImageCore
public import WebImageTransformers

extension ThumborRequest.Trim {
    /// The region of `bitmap` this trim keeps, found as thumbor 7.8 finds it
    /// (`thumbor/ext/filters/_bounding_box.c`), or `nil` when thumbor ignores the trim.
    ///
    /// The reference is the top-left or bottom-right pixel; a pixel differs when its Euclidean
    /// distance to it (over red, green and blue, and alpha too when `bitmap.hasAlpha`) is above
    /// ``tolerance``. Row by row, the first differing pixel from the left moves the left, top
    /// and bottom edges, and a differing pixel found scanning back from the right (only to the
    /// right of that one and of the right edge so far) moves the right edge. So a row whose only
    /// differing pixel is its leftmost does not move the right edge, and an image with one
    /// differing pixel per row can end with the right edge left of the left edge: thumbor then
    /// ignores the trim, as it does when nothing differs, and so does this (`nil`).
    ///
    /// Pass the result to ``ThumborRequest/plan(sourceSize:trimmedRegion:)``. The bitmap is the
    /// source after EXIF orientation (what the plan's sizes are in).
    public func region(in bitmap: Bitmap) -> PixelRect? {
        let width = bitmap.width, height = bitmap.height
        guard width > 0, height > 0 else { return nil }
        let channels = bitmap.hasAlpha ? 4 : 3
        let limit = tolerance * tolerance
        let rowBytes = bitmap.bytesPerRow
        return bitmap.bytes.withUnsafeBufferPointer { pixels -> PixelRect? in
            let referenceOffset = fromBottomRight ? (height - 1) * rowBytes + (width - 1) * 4 : 0
            func differs(_ offset: Int) -> Bool {
                var sum = 0
                for channel in 0..<channels {
                    let difference = Int(pixels[offset + channel]) - Int(pixels[referenceOffset + channel])
                    sum += difference * difference
                }
                return sum > limit
            }
            var left = width, top = height, right = 0, bottom = 0
            for y in 0..<height {
                let rowStart = y * rowBytes
                var x = 0
                while x < width {
                    if differs(rowStart + x * 4) {
                        left = min(left, x)
                        top = min(top, y)
                        bottom = y
                        break
                    }
                    x += 1
                }
                var scan = width - 1
                let stop = max(x, right)
                while scan > stop {
                    if differs(rowStart + scan * 4) {
                        right = max(right, scan)
                        break
                    }
                    scan -= 1
                }
            }
            guard right >= left, bottom >= top else { return nil }
            return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
        }
    }
}
