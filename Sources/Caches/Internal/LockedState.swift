import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `Mutex` that ThreadSanitizer can see.
///
/// On Linux, `Synchronization.Mutex` locks through a futex shim in the prebuilt standard
/// library, which ThreadSanitizer does not instrument: under `--sanitize=thread` every access
/// to state guarded by a `Mutex` from two threads is reported as a race, although the lock
/// orders them. (A ten-line program with `DispatchQueue.concurrentPerform` and a
/// `Mutex<[Int]>` shows it; the same program with `NSLock` is clean.) Each lock here tells the
/// sanitizer what happened, with `__tsan_acquire` after locking and `__tsan_release` before
/// unlocking. The functions exist only in sanitized builds and are looked up once with
/// `dlsym`; otherwise the annotations are two `nil` checks.
///
/// Thread-safety: as `Mutex`; the body runs with the lock held, so it must not call user code.
final class LockedState<Value>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result, Failure: Error>(_ body: (inout sending Value) throws(Failure) -> sending Result) throws(Failure) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            let token = Unmanaged.passUnretained(self).toOpaque()
            SanitizerAnnotations.shared.acquire?(token)
            defer { SanitizerAnnotations.shared.release?(token) }
            return try body(&value)
        }
    }
}

/// ThreadSanitizer's annotation functions, when the process has them.
struct SanitizerAnnotations: @unchecked Sendable {
    // @unchecked Sendable: immutable C function pointers, set once in `init`.
    typealias Annotate = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let acquire: Annotate?
    let release: Annotate?

    static let shared = SanitizerAnnotations()

    private init() {
        let handle = dlopen(nil, RTLD_NOW)
        acquire = handle.flatMap { dlsym($0, "__tsan_acquire") }.map { unsafeBitCast($0, to: Annotate.self) }
        release = handle.flatMap { dlsym($0, "__tsan_release") }.map { unsafeBitCast($0, to: Annotate.self) }
    }
}
