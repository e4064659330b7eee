public import Foundation

/// Warms the caches for a list of URLs (SDWebImage's `SDWebImagePrefetcher`): loads them at
/// low priority through an ``ImageManager``, a few at a time.
///
/// Thread-safety: every method may be called from any thread; several prefetches may run at
/// once, each with its own bound.
public final class Prefetcher: Sendable {
    /// The manager that loads (and so caches) the images.
    public let manager: ImageManager
    /// How many loads one prefetch runs at once (default 3, at least 1).
    public let maxConcurrentPrefetchCount: Int
    /// The options of every load (default `lowPriority`).
    public let options: WebImageOptions
    /// The context of every load.
    public let context: WebImageContext

    private let running = Locked<[UInt64: ImageOperation]>([:])
    private let nextID = Locked<UInt64>(0)

    /// A prefetcher that loads through `manager`, at most `maxConcurrentPrefetchCount` (at least 1) at a time, with `options` and `context` on every load.
    public init(manager: ImageManager, maxConcurrentPrefetchCount: Int = 3, options: WebImageOptions = [.lowPriority], context: WebImageContext = WebImageContext()) {
        self.manager = manager
        self.maxConcurrentPrefetchCount = max(1, maxConcurrentPrefetchCount)
        self.options = options
        self.context = context
    }

    /// Prefetches `urls`, at most ``maxConcurrentPrefetchCount`` at once, in order.
    ///
    /// Cancelling the calling task stops starting new loads and cancels the running ones.
    /// - Parameters:
    ///   - urls: The URLs to load, in order.
    ///   - progress: Called after each load ends, with the counts so far and its URL.
    /// - Returns: The counts: `finished` loads ended (with an image or an error), `skipped` of
    ///   them failed; cancelled loads count in neither.
    @discardableResult
    public func prefetch(_ urls: [URL], progress: (@Sendable (PrefetchProgress, URL) -> Void)? = nil) async -> PrefetchProgress {
        let total = urls.count
        let options = options
        let context = context
        let manager = manager
        return await withTaskGroup(of: (URL, Bool?).self) { group in
            var counts = PrefetchProgress(finished: 0, skipped: 0, total: total)
            var pending = urls[...]
            func startNext() {
                guard !Task.isCancelled, let url = pending.popFirst() else { return }
                group.addTask {
                    do {
                        _ = try await manager.loadImage(with: url, options: options, context: context)
                        return (url, true)
                    } catch {
                        return (url, WebImageError.isCancellation(error) ? nil : false)
                    }
                }
            }
            for _ in 0..<maxConcurrentPrefetchCount { startNext() }
            for await (url, succeeded) in group {
                if let succeeded {
                    counts.finished += 1
                    if !succeeded { counts.skipped += 1 }
                    progress?(counts, url)
                }
                startNext()
            }
            return counts
        }
    }

    /// Prefetches `urls`, SDWebImage style.
    /// - Parameters:
    ///   - urls: The URLs to load, in order.
    ///   - progress: Called after each load ends, with the counts so far and its URL.
    ///   - completed: Called exactly once with the final counts, also after cancellation.
    /// - Returns: An operation that cancels this prefetch.
    @discardableResult
    public func prefetch(
        _ urls: [URL],
        progress: (@Sendable (PrefetchProgress, URL) -> Void)? = nil,
        completed: (@Sendable (PrefetchProgress) -> Void)? = nil
    ) -> ImageOperation {
        let id = nextID.withLock { id in
            defer { id += 1 }
            return id
        }
        // Registered before its task starts: a prefetch that ends at once (nothing to load)
        // must find its entry to remove, or it would stay in the table for good.
        let operation = ImageOperation()
        running.withLock { $0[id] = operation }
        let task = Task(priority: .low) { [self] in
            let counts = await prefetch(urls, progress: progress)
            running.withLock { _ = $0.removeValue(forKey: id) }
            completed?(counts)
        }
        operation.onCancel { task.cancel() }
        return operation
    }

    /// Cancels every prefetch started with the completion-handler API, including one whose
    /// task has not begun (it is registered before its start call returns).
    public func cancelAll() {
        let operations = running.withLock { running in
            defer { running.removeAll() }
            return Array(running.values)
        }
        for operation in operations { operation.cancel() }
    }

    /// The number of completion-handler prefetches in the table (for tests).
    var runningCount: Int {
        running.withLock { $0.count }
    }
}

/// The counts of a prefetch.
public struct PrefetchProgress: Hashable, Sendable {
    /// Loads that ended, with an image or an error.
    public var finished: Int
    /// Loads among `finished` that failed.
    public var skipped: Int
    /// The number of URLs.
    public var total: Int

    /// Counts as given.
    public init(finished: Int, skipped: Int, total: Int) {
        self.finished = finished
        self.skipped = skipped
        self.total = total
    }
}
