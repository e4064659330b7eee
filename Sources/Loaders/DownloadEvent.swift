public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A moment in the life of one download of a ``Downloader``, for progress indicators and logs
/// (SDWebImage's download start / receive response / stop / finish notifications).
///
/// One download (one transfer) may serve several requesters of the same URL: the events are
/// per transfer, not per requester. Observe them with ``Downloader/addObserver(_:)``.
public enum DownloadEvent: Sendable {
    /// The download waits for a free slot (``Downloader/maxConcurrentDownloads``) or for the
    /// downloader to be resumed.
    case queued(url: URL)
    /// A request joined the download already in flight for its URL; `requesterCount` requesters
    /// now wait on it.
    case requesterJoined(url: URL, requesterCount: Int)
    /// A requester left (its task was cancelled); `requesterCount` remain. At 0 the download is
    /// abandoned: dequeued, or its connection closed.
    case requesterLeft(url: URL, requesterCount: Int)
    /// The request was sent.
    case started(url: URL, request: URLRequest)
    /// A valid response arrived (after the response modifier and the status, content type and
    /// size checks).
    case receivedResponse(url: URL, response: URLResponse)
    /// What the transport did (HTTP version, connections opened, redirects), sent once per
    /// download that sent a request, just before ``stopped(url:)``.
    case collectedMetrics(url: URL, metrics: DownloadMetrics)
    /// The transfer ended: finished, failed or cancelled.
    case stopped(url: URL)
    /// The transfer finished with a complete body (sent after ``stopped(url:)``; decoding follows).
    case finished(url: URL)

    /// The URL the event is about (the requested one, not a redirect target).
    public var url: URL {
        switch self {
        case .queued(let url), .requesterJoined(let url, _), .requesterLeft(let url, _), .started(let url, _),
             .receivedResponse(let url, _), .collectedMetrics(let url, _), .stopped(let url), .finished(let url):
            url
        }
    }
}
