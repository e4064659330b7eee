import Foundation
import WebImageCore

/// What the transfers of one ``Downloader`` share: its settings, coder, table of transfers
/// in flight, scheduler, event observers and libcurl event loop.
struct DownloadEnvironment: Sendable {
    let configuration: DownloaderConfiguration
    let coder: any ImageCoder
    let table: TransferTable
    let scheduler: TransferScheduler
    let events: ObserverList<DownloadEvent>
    /// The thread that runs every transfer's libcurl handles.
    let loop: CurlEventLoop
    /// The responses kept for `refreshCached` revalidation (`nil`: revalidation off).
    let responses: ResponseStore?
    /// The cookies of `handleCookies` requests.
    let cookies: CookieStore
    /// The large body buffers kept for reuse.
    let buffers: BodyBufferPool

    /// The idle timeout in seconds, as configured to the millisecond: 0, a negative value or
    /// NaN means the default of 15 s (SDWebImage's rule), and more than a year is a year.
    var timeoutSeconds: TimeInterval {
        let value = configuration.downloadTimeout
        guard value > 0 else { return 15 }
        return min(max(value, 0.001), 365 * 86_400)
    }

    /// ``timeoutSeconds`` as a `Duration`, to the millisecond.
    var idleTimeout: Duration {
        .milliseconds(Int64((timeoutSeconds * 1000).rounded(.up)))
    }

    /// The configured credential for HTTP Basic challenges, if any.
    var credential: (user: String, password: String)? {
        if let credential = configuration.urlCredential, let user = credential.user {
            return (user, credential.password ?? "")
        }
        if let user = configuration.username, let password = configuration.password {
            return (user, password)
        }
        return nil
    }
}
