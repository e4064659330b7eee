/// What the value of a ``WebImageContextKey`` changes, declared by the key type. The manager
/// and the loaders derive from it which requests may share work.
///
/// - ``none``: nothing about the image (where callbacks run, which target operation a load
///   belongs to). Requests that differ only in such keys share one load.
/// - ``load``: what is loaded, cached, transformed or stored, but not how bytes become pixels
///   (a cache, a loader, cache types, a transformer, request modifiers). Requests share a load
///   only when these values are equal; requesters of one download still share its decode.
/// - ``decode``: how bytes become pixels (a coder, thumbnail size, scale, limits). Requests share
///   a load or a decode only when these values are equal.
/// - ``unknown``: the default for a key that declares nothing. A request that carries such a
///   key never shares its load or its decode with another.
///
/// Two values are equal when they are `Hashable` and compare equal, or are the same class
/// instance. A value that is neither (a struct that is not `Hashable`, a closure) cannot be
/// compared: a request carrying it in a ``load`` or ``decode`` key runs on its own.
public enum WebImageContextKeyEffect: Sendable, Hashable, CaseIterable {
    /// Changes nothing about the image or its caching.
    case none
    /// Changes what is loaded, cached, transformed or stored, not the decode.
    case load
    /// Changes how bytes are decoded.
    case decode
    /// Not declared: the request shares no work.
    case unknown
}
