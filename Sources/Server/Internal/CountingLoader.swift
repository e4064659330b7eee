import Foundation
import WebImageCore

/// A source loader that reports each fetch to the server's metrics (one per coalesced load:
/// the manager calls its loader once for requests that share the work) and never asks the
/// manager to block a URL after a failure (an origin may have the file a minute later).
final class CountingLoader: ImageLoader {
    let inner: any ImageLoader
    let kind: String
    let metrics: ServerMetrics

    init(_ inner: any ImageLoader, kind: String, metrics: ServerMetrics) {
        self.inner = inner
        self.kind = kind
        self.metrics = metrics
    }

    func canRequestImage(for url: URL) -> Bool {
        inner.canRequestImage(for: url)
    }

    func requestImage(with url: URL, options: WebImageOptions, context: WebImageContext, progress: ImageLoaderProgressHandler?) async throws -> ImageLoaderResult {
        do {
            let result = try await inner.requestImage(with: url, options: options, context: context, progress: progress)
            metrics.originFetched(kind: kind, bytes: result.data?.count ?? 0)
            return result
        } catch {
            metrics.originFailed(kind: kind)
            throw error
        }
    }

    func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        false
    }
}
