/// Where an image is cached or should be looked up (SDWebImage's `SDImageCacheType`).
///
/// As a query or store parameter it says which tiers to use; as a result it says where the
/// image was found (`.none`: not cached, freshly loaded).
public enum ImageCacheType: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// No cache: as a parameter, skip the cache; as a result, the image came from the loader.
    case none
    /// The in-memory tier.
    case memory
    /// The on-disk tier.
    case disk
    /// Every tier.
    case all

    /// Whether this type includes the memory tier.
    public var includesMemory: Bool { self == .memory || self == .all }
    /// Whether this type includes the disk tier.
    public var includesDisk: Bool { self == .disk || self == .all }

    public var description: String {
        switch self {
        case .none: "none"
        case .memory: "memory"
        case .disk: "disk"
        case .all: "all"
        }
    }
}
