import WebImageCore

/// Resizing of decoded stills to a thumbnail or scale-down size: Lanczos-3 through Core's
/// `Bitmap.resampled(to:filter:)`. PNG and BMP stills under a quarter of the source per side never
/// reach a full-size bitmap: their rows are box-reduced as they are decoded (``BlockReducer``)
/// and only the intermediate is resized here. Animations (GIF, APNG) are not resized after decoding: their
/// frames are area-averaged onto a thumbnail-size canvas as they are decoded
/// (``FrameDownsampler``, ``ScaledAnimationCanvas``).
enum Thumbnail {
    /// `bitmap` resampled to exactly `size` (the same bitmap if it already has that size).
    static func resize(_ bitmap: Bitmap, to size: PixelSize) throws -> Bitmap {
        if bitmap.size == size { return bitmap }
        return try bitmap.resampled(to: size, filter: .lanczos3)
    }
}
