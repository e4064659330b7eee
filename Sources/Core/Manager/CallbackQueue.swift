public import Dispatch

/// Where SwiftWebImage calls completion, progress and partial-image callbacks
/// (SDWebImage's `SDCallbackQueue`).
///
/// On a server there is often no running main queue, so the default is ``immediate``: the
/// callback runs on whatever thread finished the work, never under one of our locks.
public enum CallbackQueue: Sendable {
    /// Call on the thread that finished the work (the default).
    case immediate
    /// Dispatch asynchronously to the main queue (needs a running main loop).
    case main
    /// Dispatch asynchronously to this queue.
    case queue(DispatchQueue)

    /// Runs `work` on this queue.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .immediate: work()
        case .main: DispatchQueue.main.async(execute: work)
        case .queue(let queue): queue.async(execute: work)
        }
    }
}
