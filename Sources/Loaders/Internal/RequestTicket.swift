import WebImageCore

/// Joins a requester's task cancellation to its place in a transfer, whichever comes first:
/// the cancellation handler may run before the requester has joined a transfer (then the
/// requester leaves as soon as it joins) or after (then it leaves at once).
final class RequestTicket: Sendable {
    let requesterID: UInt64
    private let state = Locked<(cancelled: Bool, transfer: DownloadTransfer?)>((false, nil))

    init(requesterID: UInt64) {
        self.requesterID = requesterID
    }

    /// The requester's task was cancelled.
    func cancel() {
        let transfer = state.withLock { state -> DownloadTransfer? in
            state.cancelled = true
            return state.transfer
        }
        transfer?.removeRequester(requesterID)
    }

    /// The requester has joined `transfer`.
    func attach(to transfer: DownloadTransfer) {
        let cancelled = state.withLock { state -> Bool in
            state.transfer = transfer
            return state.cancelled
        }
        if cancelled { transfer.removeRequester(requesterID) }
    }
}
