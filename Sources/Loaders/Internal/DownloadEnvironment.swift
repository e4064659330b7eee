import Foundation
import WebImageCore

/// What the transfers of one ``Downloader`` share: its settings, coder, table of transfers
/// in flight, scheduler, event observers and libcurl event loop.
struct DownloadEnvironment: Sendable {
    let configuration: DownloaderConfiguration
    let coder: any ImageCoder
    let table: TransferTable
    let scheduler: TransferScheduler
    let events: EventHub
    /// The thread that runs every transfer's libcurl handles.
    let loop: CurlEventLoop
    /// The responses kept for `refreshCached` revalidation (`nil`: revalidation off).
    let responses: ResponseStore?
    /// The cookies of `handleCookies` requests.
    let cookies: CookieStore

    /// The idle timeout in whole seconds, rounded up, at least 1 (as the URLSession transport
    /// had it, so that configurations keep their meaning).
    var timeoutSeconds: TimeInterval {
        max(1, configuration.downloadTimeout.rounded(.up))
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
