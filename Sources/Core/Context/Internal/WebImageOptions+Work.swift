extension WebImageOptions {
    /// The flags that change when or how a request is scheduled or shown, never the image it
    /// gets: requests that differ only in these share one load. Every other flag, a plug-in's
    /// included, enters the manager's work key.
    static let workIndependent: WebImageOptions = [
        .retryFailed, .lowPriority, .highPriority, .delayPlaceholder, .avoidAutoSetImage,
        .avoidAutoCancelImage, .queryMemoryDataSync, .queryDiskDataSync,
    ]
}
