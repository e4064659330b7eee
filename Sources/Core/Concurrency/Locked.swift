public import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `Mutex` that ThreadSanitizer can see: the shared-state primitive of
/// SwiftWebImage.
///
/// ```swift
/// private let state = Locked(State())
/// state.withLock { $0.count += 1 }
/// ```
///
/// Why not a bare `Synchronization.Mutex`: on Linux it locks through a futex shim in the
/// prebuilt standard library, which ThreadSanitizer does not instrument, so under `swift test
/// --sanitize=thread` every access guarded by a `Mutex` from two threads is reported as a race
/// (a ten-line `concurrentPerform` program over a `Mutex<[Int]>` shows it) and real races drown
/// in the noise. `Locked` is a `Mutex` that tells the sanitizer what happened:
/// `__tsan_acquire` after locking, `__tsan_release` before unlocking. Those functions exist
/// only in sanitized processes and are looked up once with `dlsym`; in normal builds the
/// annotations cost two `nil` checks.
///
/// Rules: keep the closure short; never call user code (coders, callbacks, continuations)
/// inside it; never lock the same instance again from inside the closure.
public final class Locked<Value>: Sendable {
    @usableFromInline
    let mutex: Mutex<Value>

    /// A lock guarding `value`.
    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout sending Value) throws(Failure) -> sending Result) throws(Failure) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            let token = Unmanaged.passUnretained(self).toOpaque()
            SanitizerAnnotations.shared.acquire?(token)
            defer { SanitizerAnnotations.shared.release?(token) }
            return try body(&value)
        }
    }

    /// Runs `body` with exclusive access if no other thread holds the lock now; returns `nil`
    /// at once, without running `body`, if one does.
    @inlinable
    public func withLockIfAvailable<Result, Failure: Error>(_ body: (inout sending Value) throws(Failure) -> sending Result) throws(Failure) -> sending Result? {
        try mutex.withLockIfAvailable { (value: inout sending Value) throws(Failure) -> sending Result in
            let token = Unmanaged.passUnretained(self).toOpaque()
            SanitizerAnnotations.shared.acquire?(token)
            defer { SanitizerAnnotations.shared.release?(token) }
            return try body(&value)
        }
    }
}

/// ThreadSanitizer's annotation functions, when the process has them.
@usableFromInline
struct SanitizerAnnotations: @unchecked Sendable {
    // @unchecked Sendable: immutable C function pointers, set once in `init`.
    @usableFromInline
    typealias Annotate = @convention(c) (UnsafeMutableRawPointer?) -> Void

    @usableFromInline let acquire: Annotate?
    @usableFromInline let release: Annotate?

    @usableFromInline
    static let shared = SanitizerAnnotations()

    private init() {
        let handle = dlopen(nil, RTLD_NOW)
        acquire = handle.flatMap { dlsym($0, "__tsan_acquire") }.map { unsafeBitCast($0, to: Annotate.self) }
        release = handle.flatMap { dlsym($0, "__tsan_release") }.map { unsafeBitCast($0, to: Annotate.self) }
    }
}
