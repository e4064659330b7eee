import SwiftWebImage

/// Counts the cache's log entries (the log handler may run on any thread).
final class LogCount: Sendable {
    private let value = Locked(0)

    func add() { value.withLock { $0 += 1 } }

    var count: Int { value.withLock { $0 } }
}
