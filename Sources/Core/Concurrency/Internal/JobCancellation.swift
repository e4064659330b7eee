#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The cancellation flag of one job of a ``BlockingWorkExecutor``: set when the task that
/// waits for the job is cancelled, read by the job's own code on its worker thread through
/// ``BlockingWorkExecutor/isCurrentJobCancelled``.
final class JobCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    var isCancelled: Bool { flag.load(ordering: .relaxed) }

    func cancel() { flag.store(true, ordering: .relaxed) }

    /// The flag of the job the calling thread runs, if any.
    static var current: JobCancellation? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<JobCancellation>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` with `cancellation` as the calling thread's current flag (the job holds the
    /// flag for as long as it runs, so the thread-local reference needs no retain).
    static func running<Result>(_ cancellation: JobCancellation?, _ body: () -> Result) -> Result {
        guard let cancellation else { return body() }
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(cancellation).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return withExtendedLifetime(cancellation) { body() }
    }

    /// The thread-local slot (made once, never deleted).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
