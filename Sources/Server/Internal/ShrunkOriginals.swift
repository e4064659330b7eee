import WebImageCore

/// A reduced decode of a shrink-on-load request (``ShrinkOnLoad``) and the full upright size of
/// its source.
struct ShrunkOriginal: Sendable {
    var image: WebImage
    var sourceSize: PixelSize
}

/// The reduced decodes of shrink-on-load requests, by the original's key and the size they were
/// decoded at (the scale, ``ShrinkOnLoad/reducedSize(for:plan:)``), with the headers of their
/// sources: a later request whose plan needs the same reduced copy (any `fit-in` box that the
/// same DCT scale covers, for instance) starts from it without reading the source again. A
/// request is matched to a copy through its source's headers, kept from its first decode (a
/// source not decoded yet is read). Kept apart from the originals' cache on purpose: a reduced
/// image must never answer a request under the original's key, and a whole original kept there
/// must not stand in for a reduced decode (its resize would not be thumbor's `draft`).
///
/// Thread-safety: every method may be called from any thread.
final class ShrunkOriginals: Sendable {
    private let images: BoundedMemoryTier<ShrunkOriginal>
    /// The headers of the sources decoded, by the original's key (a few hundred bytes each).
    private let sources: BoundedMemoryTier<ImageProperties>

    /// A store of at most `capacity` bytes of pixels (0 keeps nothing).
    init(capacity: Int) {
        images = BoundedMemoryTier(capacity: capacity)
        sources = BoundedMemoryTier(capacity: capacity > 0 ? max(64 * 1024, capacity / 256) : 0)
    }

    /// The key of the copy of the original under `originalKey` decoded at `size`.
    static func key(originalKey: String, size: PixelSize) -> String {
        originalKey + "|" + size.description
    }

    /// The headers of the source under `originalKey`, when one was decoded.
    func properties(originalKey: String) -> ImageProperties? {
        sources.value(forKey: originalKey)
    }

    /// The reduced copy a request with `plan` starts from, when its source's headers are known
    /// and that copy is held: the copy ``ShrinkOnLoad/reducedSize(for:plan:)`` picks, or the
    /// whole decode when it picks none.
    func value(originalKey: String, plan: (PixelSize) -> ThumborPlan) -> (entry: ShrunkOriginal, key: String)? {
        guard let properties = properties(originalKey: originalKey) else { return nil }
        let size = ShrinkOnLoad.reducedSize(for: properties, plan: plan) ?? properties.orientedPixelSize
        let key = Self.key(originalKey: originalKey, size: size)
        return images.value(forKey: key).map { ($0, key) }
    }

    /// Keeps `image`, a decode of the source under `originalKey` whose headers are
    /// `properties`, under its size, at the cost of its pixels.
    func store(_ image: WebImage, properties: ImageProperties, originalKey: String) {
        sources.set(properties, forKey: originalKey, cost: 256)
        images.set(ShrunkOriginal(image: image, sourceSize: properties.orientedPixelSize), forKey: Self.key(originalKey: originalKey, size: image.pixelSize), cost: image.memoryCost)
    }
}
