import WebImageCore
import Foundation

/// The downloads in flight, one per URL (queued, running or decoding): a request for a URL
/// in the table joins its transfer instead of starting another.
///
/// Lock order: the table's lock may be held while a transfer's lock is taken (to join),
/// never the other way round.
///
/// How it relates to the manager's shared work: a transfer's requesters follow the same rules
/// (``WorkSubscribers``: join unless closed, the last to leave abandons the run, whoever takes
/// a requester out resumes it), kept in the transfer's ``TransferLifecycle``. What differs is
/// the key's life: a transfer is one HTTP exchange whose requesters each keep their own decode
/// (grouped by `ImageDecodeSharingKey` when it ends: ``TransferLifecycle/takeServed(by:)``),
/// progress handler, priority and queue position, so the table maps a URL to its transfer and
/// the transfer holds its requesters under its own lock (not the table's).
final class TransferTable: Sendable {
    private let transfers = Locked<[URL: DownloadTransfer]>([:])

    /// Adds `requester` to the transfer in flight for `url`, if there is one that still takes
    /// requesters.
    /// - Returns: The transfer and its number of requesters now.
    func join(_ url: URL, _ requester: DownloadRequester) -> (DownloadTransfer, requesterCount: Int)? {
        transfers.withLock { transfers in
            guard let transfer = transfers[url], let count = transfer.add(requester) else { return nil }
            return (transfer, count)
        }
    }

    /// Inserts `transfer` with `requester` as its first requester, unless another transfer for
    /// the URL appeared meanwhile: then `requester` joins that one.
    /// - Returns: The transfer joined, its number of requesters now, and whether it is
    ///   `transfer` (new, to be scheduled).
    func insert(_ transfer: DownloadTransfer, with requester: DownloadRequester) -> (DownloadTransfer, requesterCount: Int, isNew: Bool) {
        transfers.withLock { transfers in
            if let existing = transfers[transfer.url], let count = existing.add(requester) {
                return (existing, count, false)
            }
            _ = transfer.add(requester)
            transfers[transfer.url] = transfer
            return (transfer, 1, true)
        }
    }

    /// Removes `transfer` if it is still the one registered for its URL.
    func remove(_ transfer: DownloadTransfer) {
        transfers.withLock { transfers in
            if transfers[transfer.url] === transfer { transfers[transfer.url] = nil }
        }
    }

    /// Every transfer in flight.
    var all: [DownloadTransfer] {
        transfers.withLock { Array($0.values) }
    }

    /// The number of transfers in flight.
    var count: Int {
        transfers.withLock { $0.count }
    }
}
