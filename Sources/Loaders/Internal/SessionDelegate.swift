import WebImageCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The one delegate of a ``Downloader``'s `URLSession`: routes every task callback to the
/// transfer that owns the task.
///
/// `@unchecked Sendable`: it inherits from `NSObject` (required by the delegate protocols),
/// and its only stored state is a `Locked`; URLSession calls it on its serial delegate queue.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let transfers = Locked<[Int: DownloadTransfer]>([:])

    func register(_ task: URLSessionTask, for transfer: DownloadTransfer) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    private func transfer(for task: URLSessionTask) -> DownloadTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(for: dataTask) else {
            completionHandler(.cancel)
            dataTask.cancel()
            return
        }
        // swift-corelibs-foundation ignores the disposition (it cannot pause libcurl), so a
        // refused response is also cancelled through the task, inside the transfer.
        completionHandler(transfer.didReceive(response, task: dataTask) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.didReceive(data, task: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let transfer = transfer(for: task) else {
            completionHandler(nil)
            return
        }
        // After a cancel, calling the handler would crash swift-corelibs-foundation 6.3
        // (DownloadTransfer.cancelTask): the cancelled task completes without it.
        guard !transfer.isTaskCancelled else { return }
        completionHandler(transfer.willRedirect(response, to: request, task: task))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        guard let transfer = transfer(for: task) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        let (disposition, credential) = transfer.answer(challenge)
        completionHandler(disposition, credential)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse, completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void) {
        // The downloader keeps its own URL cache for refreshCached requests (see
        // DownloaderConfiguration.urlCache); the session never caches.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.didComplete(error: error, task: task)
    }
}
