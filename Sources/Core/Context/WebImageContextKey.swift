/// A key of ``WebImageContext``: the key type declares the type of its value, so a value of
/// the wrong type is a compile error, never a silent miss, and what the value changes, so
/// that requests that differ only in it can still share work.
///
/// Plug-ins declare their own keys and expose them as a property, like the built-in ones:
///
/// ```swift
/// public enum WebPLosslessKey: WebImageContextKey {
///     public typealias Value = Bool
///     public static let effect = WebImageContextKeyEffect.load   // changes what is stored
/// }
///
/// extension WebImageContext {
///     public var webPLossless: Bool? {
///         get { self[WebPLosslessKey.self] }
///         set { self[WebPLosslessKey.self] = newValue }
///     }
/// }
/// ```
///
/// A key that declares no ``effect`` is ``WebImageContextKeyEffect/unknown``: a request that
/// carries it never shares its load or decode with another request.
public protocol WebImageContextKey: Sendable {
    /// The type of the value stored under this key.
    associatedtype Value: Sendable
    /// What a value of this key changes (default ``WebImageContextKeyEffect/unknown``).
    static var effect: WebImageContextKeyEffect { get }
}

extension WebImageContextKey {
    /// Undeclared: ``WebImageContextKeyEffect/unknown``.
    public static var effect: WebImageContextKeyEffect { .unknown }
}
