/// Where an image is cached or should be looked up (SDWebImage's `SDImageCacheType`).
///
/// Two roles in one type. As a parameter (`cacheType:`, ``WebImageContext/queryCacheType``, ...)
/// it is a set of tiers: `.memory`, `.disk`, both (`.all`), or none (`.none`: skip the cache).
/// As a result (``ImageCacheResult/cacheType``, `containsImage`) it is the source: the tier the
/// image came from, `.none` meaning not cached (freshly loaded). The trap: on an optional (the
/// context's keys), a bare `.none` is `nil`, "not set", so the default tiers are used: write
/// `ImageCacheType.none` in full (the compiler warns about the bare form).
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

    /// The case's name (`"none"`, `"memory"`, `"disk"`, `"all"`).
    public var description: String {
        switch self {
        case .none: "none"
        case .memory: "memory"
        case .disk: "disk"
        case .all: "all"
        }
    }
}
