import Foundation
import WebImageCore

/// What the transfers of one ``Downloader`` share: its settings, coder, table of transfers
/// in flight, scheduler and event observers.
struct DownloadEnvironment: Sendable {
    let configuration: DownloaderConfiguration
    let coder: any ImageCoder
    let table: TransferTable
    let scheduler: TransferScheduler
    let events: EventHub
    /// The session's serial delegate queue: every `task.cancel()` runs on it (see
    /// ``DownloadTransfer/cancelTask(_:)``).
    let delegateQueue: OperationQueue

    /// The request timeout URLSession on Linux can honour: whole seconds, rounded up, at least 1.
    var timeoutSeconds: TimeInterval {
        max(1, configuration.downloadTimeout.rounded(.up))
    }
}
