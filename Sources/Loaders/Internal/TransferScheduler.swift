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

    /// The queued transfers of one priority, in arrival order: FIFO takes from `head`, LIFO
    /// from the end, each in constant time (a scan of every queued transfer per start was a
    /// visible cost per download with thousands queued).
    private struct Queue {
        /// A taken transfer is not retained here (it holds its body until it is released, and
        /// the body's buffer goes back to the pool only then).
        var transfers = FIFOQueue<DownloadTransfer>()

        var isEmpty: Bool { transfers.isEmpty }

        /// The oldest transfer (FIFO) or the newest (LIFO); the queue is not empty.
        mutating func take(newest: Bool) -> DownloadTransfer {
            (newest ? transfers.popLast() : transfers.popFirst())!
        }

        mutating func remove(_ transfer: DownloadTransfer) -> Bool {
            transfers.remove { $0 === transfer } != nil
        }
    }

    private struct State {
        var maxConcurrent: Int
        var order: DownloaderConfiguration.ExecutionOrder
        var running = 0
        var isSuspended = false
        /// By priority: `queues[Priority.rawValue]`.
        var queues = [Queue](repeating: Queue(), count: 3)
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
        state.withLock { $0.queues[priority.rawValue].transfers.append(transfer) }
        queued()
        drain()
    }

    /// Takes `transfer` out of the queue if it has not started. Returns whether it was queued.
    @discardableResult
    func dequeue(_ transfer: DownloadTransfer) -> Bool {
        state.withLock { state in
            for priority in state.queues.indices where state.queues[priority].remove(transfer) { return true }
            return false
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
                guard !state.isSuspended, state.running < state.maxConcurrent,
                      let priority = state.queues.indices.reversed().first(where: { !state.queues[$0].isEmpty }) else { return nil }
                state.running += 1
                return state.queues[priority].take(newest: state.order == .lifo)
            }
            guard let next else { return }
            if !next.start() {
                state.withLock { $0.running -= 1 }
            }
        }
    }
}
