/// A point in time by which a round trip must be done, on the monotonic clock.
struct Deadline: Sendable, Comparable {
    let instant: ContinuousClock.Instant

    init(_ instant: ContinuousClock.Instant) {
        self.instant = instant
    }

    /// `seconds` from now (negative or NaN: now).
    static func after(seconds: Double) -> Deadline {
        let clamped = seconds.isFinite ? max(0, min(seconds, 365 * 24 * 3600)) : 0
        return Deadline(.now + .nanoseconds(Int64(clamped * 1e9)))
    }

    static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.instant < rhs.instant }

    /// Whether the deadline has passed.
    var hasPassed: Bool { instant <= .now }

    /// The time left in whole milliseconds, rounded up (0 when passed), for `poll`.
    var millisecondsLeft: Int32 {
        let left = instant - .now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    /// The time left in seconds (0 when passed).
    var secondsLeft: Double {
        let left = instant - .now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
