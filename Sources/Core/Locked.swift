#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a mutex: the shared-state primitive of SwiftWebImage.
///
/// ```swift
/// private let state = Locked(State())
/// state.withLock { $0.count += 1 }
/// ```
///
/// Why not `Synchronization.Mutex`: on Linux its lock path (atomics and futex calls inside the
/// prebuilt standard library) is invisible to ThreadSanitizer, so `swift test
/// --sanitize=thread` reports every `Mutex`-guarded access as a race and real races drown in
/// the noise. `Locked` uses a `pthread_mutex_t`, which ThreadSanitizer understands, with the
/// same `withLock` shape. Uncontended, it costs about the same.
///
/// Rules: keep the closure short; never call user code (coders, callbacks, continuations)
/// inside it; never call `withLock` on the same instance from inside the closure (the mutex
/// is not recursive).
public final class Locked<Value> {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A lock guarding `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body(&storage)
    }

    @usableFromInline
    func lock() { pthread_mutex_lock(mutex) }

    @usableFromInline
    func unlock() { pthread_mutex_unlock(mutex) }

    @usableFromInline
    var storage: Value {
        get { value }
        _modify { yield &value }
    }
}

// Safe: the value is only reached through `withLock`, under the mutex, and the value itself
// must be Sendable, so nothing taken out of it can race.
extension Locked: @unchecked Sendable where Value: Sendable {}
