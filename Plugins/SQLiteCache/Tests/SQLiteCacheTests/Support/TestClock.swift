import Foundation
import WebImageCore

/// A clock a test moves by hand, so that expiry is tested without waiting.
final class TestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Locked(start)
    }

    /// The current time.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }

    /// The closure a cache takes.
    var source: @Sendable () -> Date { { self.now } }
}
