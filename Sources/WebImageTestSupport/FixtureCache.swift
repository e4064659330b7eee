import WebImageCore

/// Generated fixtures kept for the rest of the test process, by a key that says what they are
/// (`"jpeg 64x48"`), so that the same image is encoded once, not once per test.
///
/// ```swift
/// private static let made = FixtureCache<Data>()
/// static func jpeg(width: Int = 64, height: Int = 48) -> Data {
///     made.value(for: "jpeg \(width)x\(height)") { encodeTheGradient(width, height) }
/// }
/// ```
///
/// Why: a suite whose `init` writes a few generated images runs that `init` for every test,
/// and the encodes (a GIF's palette search, a JPEG's DCT) add up to seconds of CPU on the pool
/// that every other test's `await` queues behind. Only for fixtures that are the same bytes
/// every time (no randomness, no clock).
///
/// Thread-safety: may be used from any thread. Two first calls for a key at once may both make
/// the value (it is not made under the lock); both get a value made the same way.
public final class FixtureCache<Value: Sendable>: Sendable {
    private let values = Locked<[String: Value]>([:])

    /// An empty cache.
    public init() {}

    /// The value made for `key` earlier in this process, or the one `make` makes now (kept).
    /// - Throws: What `make` throws (nothing is kept then).
    public func value(for key: String, make: () throws -> Value) rethrows -> Value {
        if let value = values.withLock({ $0[key] }) { return value }
        let value = try make()
        values.withLock { $0[key] = value }
        return value
    }
}
