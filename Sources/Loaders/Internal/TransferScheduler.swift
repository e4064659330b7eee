import WebImageCore
import Foundation

/// Starts queued transfers when a slot is free: at most `maxConcurrent` run at once; the
/// next to start is the first of the highest priority class, in FIFO or LIFO order.
/// Suspending stops new starts (running transfers go on).
final class TransferScheduler: Sendable {
    enum Priority: Int, Sendable, Comparable {
        case low = 0, normal = 1, high = 2
        static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private struct Pending {
        let transfer: DownloadTransfer
        let priority: Priority
        let sequence: UInt64
    }

    private struct State {
        var maxConcurrent: Int
        var order: DownloaderConfiguration.ExecutionOrder
        var running = 0
        var isSuspended = false
        var pending: [Pending] = []
        var nextSequence: UInt64 = 0
    }

    private let state: Locked<State>

    init(maxConcurrent: Int, order: DownloaderConfiguration.ExecutionOrder) {
        state = Locked(State(maxConcurrent: max(1, maxConcurrent), order: order))
    }

    var maxConcurrent: Int {
        get { state.withLock { $0.maxConcurrent } }
        set {
            state.withLock { $0.maxConcurrent = max(1, newValue) }
            drain()
        }
    }

    var isSuspended: Bool {
        get { state.withLock { $0.isSuspended } }
        set {
            state.withLock { $0.isSuspended = newValue }
            drain()
        }
    }

    /// The number of transfers that hold a slot (sent, and not yet done delivering).
    var runningCount: Int {
        state.withLock { $0.running }
    }

    /// Queues `transfer`, calls `queued` (no lock held), then starts what may start.
    func enqueue(_ transfer: DownloadTransfer, priority: Priority, queued: () -> Void) {
        state.withLock { state in
            state.pending.append(Pending(transfer: transfer, priority: priority, sequence: state.nextSequence))
            state.nextSequence += 1
        }
        queued()
        drain()
    }

    /// Takes `transfer` out of the queue if it has not started. Returns whether it was queued.
    @discardableResult
    func dequeue(_ transfer: DownloadTransfer) -> Bool {
        state.withLock { state in
            guard let index = state.pending.firstIndex(where: { $0.transfer === transfer }) else { return false }
            state.pending.remove(at: index)
            return true
        }
    }

    /// A started transfer is done (its requesters resumed, or none left): frees its slot and
    /// starts the next.
    func release() {
        state.withLock { $0.running -= 1 }
        drain()
    }

    /// Starts queued transfers while there are free slots.
    private func drain() {
        while true {
            let next = state.withLock { state -> DownloadTransfer? in
                guard !state.isSuspended, state.running < state.maxConcurrent, !state.pending.isEmpty else { return nil }
                let lifo = state.order == .lifo
                var best = 0
                for index in state.pending.indices.dropFirst() {
                    let candidate = state.pending[index], current = state.pending[best]
                    if candidate.priority != current.priority {
                        if candidate.priority > current.priority { best = index }
                    } else if lifo ? candidate.sequence > current.sequence : candidate.sequence < current.sequence {
                        best = index
                    }
                }
                state.running += 1
                return state.pending.remove(at: best).transfer
            }
            guard let next else { return }
            if !next.start() {
                state.withLock { $0.running -= 1 }
            }
        }
    }
}
