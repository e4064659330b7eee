import WebImageCore

/// Tells when Swift's cooperative pool answers promptly again after the start of a test run,
/// for ``ResponsivePoolTrait`` (`@Suite(.timeLimit(.minutes(1)), .whenThePoolResponds)`).
///
/// Why: `swift test` starts every test at once, and the pool runs jobs first in, first out, so
/// for the first seconds of a run (ten to twenty on a 2-core machine, more when it is loaded)
/// every `await` of every test waits behind the first steps of all the others: a probe measured
/// 2 to 12 s for a single `Task.yield()` then, and under 1 ms a few seconds later. A test with a
/// time limit and many sequential steps (downloads one after another, round trips to a Redis
/// server) that starts in that window spends most of its limit waiting for the run's start,
/// not on its own work.
///
/// The first caller of ``wait()`` probes: it yields to the pool until three yields in a row
/// come back within 50 ms, or until two minutes have passed (the pool may stay busy; the tests
/// then start anyway); every caller returns once it has. Later callers return at once.
///
/// Thread-safety: ``wait()`` may be called from any task.
public final class ResponsivePool: Sendable {
    /// The one probe of the test process.
    public static let shared = ResponsivePool()

    private enum State {
        case notProbed
        case probing([CheckedContinuation<Bool, Never>])
        case responsive
    }

    private let state = Locked(State.notProbed)

    /// A probe of its own, not run yet (tests of this type; suites use ``shared``).
    public init() {}

    /// Whether the probe has ended: ``wait()`` returns at once from now on.
    public var hasResponded: Bool {
        state.withLock { state in
            if case .responsive = state { return true }
            return false
        }
    }

    /// Returns once the pool has answered promptly (at once when it already has).
    public func wait() async {
        let probes: Bool = await withCheckedContinuation { continuation in
            let startsProbe = state.withLock { state -> Bool? in
                switch state {
                case .responsive:
                    return nil
                case .notProbed:
                    state = .probing([])
                    return true
                case .probing(var waiters):
                    waiters.append(continuation)
                    state = .probing(waiters)
                    return false
                }
            }
            switch startsProbe {
            case nil: continuation.resume(returning: false)
            case true?: continuation.resume(returning: true)
            case false?: break  // resumed by the probe
            }
        }
        guard probes else { return }
        await Self.probe()
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            defer { state = .responsive }
            if case .probing(let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    /// Yields until three yields in a row came back within 50 ms, or for two minutes at most.
    private static func probe() async {
        let clock = ContinuousClock()
        let start = clock.now
        var prompt = 0
        while prompt < 3 && clock.now - start < .seconds(120) {
            let before = clock.now
            await Task.yield()
            prompt = clock.now - before < .milliseconds(50) ? prompt + 1 : 0
        }
    }
}
