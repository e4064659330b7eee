/// The per-request context: typed values that override any part of the pipeline for one
/// request (SDWebImage's `SDWebImageContext`, with typed keys).
///
/// Read and write values through the properties of the built-in keys (``imageCache``,
/// ``imageTransformer``, ``imageThumbnailPixelSize``, ...) or through the key subscript for
/// keys that plug-ins declare. A `nil` value means "not set": the next level decides.
///
/// ```swift
/// var context = WebImageContext()
/// context.imageThumbnailPixelSize = PixelSize(width: 200, height: 200)
/// context.imageCache = myRedisCache
/// ```
///
/// Precedence, everywhere in SwiftWebImage: a value set in the request's context wins over the
/// manager's or component's default, which wins over the built-in default. Use
/// ``merging(_:)`` to layer contexts (the argument wins).
public struct WebImageContext: Sendable {
    /// A value with the effect its key declares.
    struct Entry: Sendable {
        let value: any Sendable
        let effect: WebImageContextKeyEffect
    }

    private(set) var storage: [ObjectIdentifier: Entry] = [:]

    /// An empty context.
    public init() {}

    /// A context built by a closure: `WebImageContext { $0.imageScaleFactor = 2 }`.
    public init(_ build: (inout WebImageContext) -> Void) {
        build(&self)
    }

    /// The value stored under `key`, or `nil` when the key is not set.
    public subscript<Key: WebImageContextKey>(key: Key.Type) -> Key.Value? {
        get {
            // An absent key returns before any cast: a cast of an optional to an existential
            // value type (`any ImageCache`) asks the runtime for a conformance even when it is
            // `nil`, and the manager reads a dozen absent keys per request.
            guard !storage.isEmpty, let entry = storage[ObjectIdentifier(key)] else { return nil }
            return entry.value as? Key.Value
        }
        set { storage[ObjectIdentifier(key)] = newValue.map { Entry(value: $0, effect: Key.effect) } }
    }

    /// Whether no key is set.
    public var isEmpty: Bool { storage.isEmpty }

    /// The number of keys set.
    public var count: Int { storage.count }

    /// Removes the value stored under `key`.
    public mutating func removeValue<Key: WebImageContextKey>(for key: Key.Type) {
        storage[ObjectIdentifier(key)] = nil
    }

    /// This context with every value of `other` laid over it: where both set a key, `other` wins.
    public func merging(_ other: WebImageContext) -> WebImageContext {
        var result = self
        result.storage.merge(other.storage) { _, new in new }
        return result
    }

    /// A copy with one key set: `context.setting(ImageScaleFactorKey.self, to: 2)`.
    public func setting<Key: WebImageContextKey>(_ key: Key.Type, to value: Key.Value?) -> WebImageContext {
        var result = self
        result[key] = value
        return result
    }
}
