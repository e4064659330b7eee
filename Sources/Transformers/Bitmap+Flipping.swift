public import WebImageCore

extension Bitmap {
    /// Mirrors the pixels left-right and/or top-bottom in place, exactly.
    ///
    /// Memory: when this bitmap's pixel storage is not shared, no second bitmap is made (the
    /// rows are swapped and reversed where they are); when it is shared, copy-on-write makes
    /// the one copy this bitmap then owns. ``FlippingTransformer`` and the 180-degree case of
    /// ``RotationTransformer`` flip this way; an ``/WebImageCore/ImageTransformer`` borrows its
    /// input, so there the storage is always shared with the caller and one new bitmap is made
    /// (see ``FlippingTransformer``).
    public mutating func flip(horizontal: Bool, vertical: Bool) {
        guard horizontal || vertical, width > 0, height > 0 else { return }
        let width = self.width, height = self.height, stride = bytesPerRow
        bytes.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            if vertical {
                var top = 0, bottom = height - 1
                while top < bottom {
                    let a = base + top * stride, b = base + bottom * stride
                    for offset in Swift.stride(from: 0, to: width * 4, by: 4) {
                        let pixel = a.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                        a.storeBytes(of: b.loadUnaligned(fromByteOffset: offset, as: UInt32.self), toByteOffset: offset, as: UInt32.self)
                        b.storeBytes(of: pixel, toByteOffset: offset, as: UInt32.self)
                    }
                    top += 1
                    bottom -= 1
                }
            }
            if horizontal {
                for y in 0..<height {
                    let row = base + y * stride
                    var left = 0, right = (width - 1) * 4
                    while left < right {
                        let pixel = row.loadUnaligned(fromByteOffset: left, as: UInt32.self)
                        row.storeBytes(of: row.loadUnaligned(fromByteOffset: right, as: UInt32.self), toByteOffset: left, as: UInt32.self)
                        row.storeBytes(of: pixel, toByteOffset: right, as: UInt32.self)
                        left += 4
                        right -= 4
                    }
                }
            }
        }
    }

    /// Turns the pixels by 180 degrees in place, exactly (a left-right and top-bottom mirror;
    /// memory as ``flip(horizontal:vertical:)``).
    package mutating func rotate180() {
        flip(horizontal: true, vertical: true)
    }
}
