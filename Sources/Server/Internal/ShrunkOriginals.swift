import WebImageCore

/// A reduced decode of a shrink-on-load request (``ShrinkOnLoad``) and the full upright size of
/// its source.
struct ShrunkOriginal: Sendable {
    var image: WebImage
    var sourceSize: PixelSize
}

/// The reduced decodes of shrink-on-load requests, with their sources' full sizes, by the
/// original's key and the plan part they cover (``ShrinkOnLoad/variantKey(for:)``): a later
/// request with the same plan part starts from the reduced image without reading the source
/// again. Kept apart from the originals' cache on purpose: a reduced image must never answer a
/// request under the original's key, and a whole original kept there must not stand in for a
/// reduced decode (its resize would not be thumbor's `draft`).
typealias ShrunkOriginals = BoundedMemoryTier<ShrunkOriginal>

extension BoundedMemoryTier where Value == ShrunkOriginal {
    /// Keeps `entry` under `key` at the cost of its image's pixels.
    func store(_ entry: ShrunkOriginal, forKey key: String) {
        set(entry, forKey: key, cost: entry.image.memoryCost)
    }
}
