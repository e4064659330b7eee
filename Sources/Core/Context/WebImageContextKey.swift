/// A key of ``WebImageContext``: the key type declares the type of its value, so a value of
/// the wrong type is a compile error, never a silent miss.
///
/// Plug-ins declare their own keys and expose them as a property, like the built-in ones:
///
/// ```swift
/// public enum WebPLosslessKey: WebImageContextKey { public typealias Value = Bool }
///
/// extension WebImageContext {
///     public var webPLossless: Bool? {
///         get { self[WebPLosslessKey.self] }
///         set { self[WebPLosslessKey.self] = newValue }
///     }
/// }
/// ```
public protocol WebImageContextKey: Sendable {
    /// The type of the value stored under this key.
    associatedtype Value: Sendable
}
