import WebImageCore

/// A thread-safe list of the calls a mock received, in order.
public final class CallRecorder<Call: Sendable>: Sendable {
    private let calls = Locked<[Call]>([])

    /// An empty recorder.
    public init() {}

    /// Records one call.
    public func record(_ call: Call) {
        calls.withLock { $0.append(call) }
    }

    /// Every call so far, in order.
    public var all: [Call] {
        calls.withLock { $0 }
    }

    /// The number of calls so far.
    public var count: Int {
        calls.withLock { $0.count }
    }

    /// Forgets every call.
    public func reset() {
        calls.withLock { $0.removeAll() }
    }
}
