/// What ``ImageDecodeRequest/decodeCachedData(_:extendedData:)`` made of cached bytes.
public enum CachedDataDecodeResult: Sendable {
    /// The image, shaped for the request: a hit.
    case image(WebImage)
    /// No image for this request, but the bytes are fine: a miss that keeps the entry (an image
    /// too large for these options, a known format whose coder is not registered, a cancelled
    /// decode, an animation held the other way than `matchAnimatedImageClass` asks).
    case keep(WebImageError)
    /// The bytes are bad (empty, not an image, corrupt, zero pixels): a miss, and the cache
    /// should remove the entry.
    case remove(WebImageError)

    /// The image, for a hit.
    public var image: WebImage? {
        if case .image(let image) = self { return image }
        return nil
    }
}
