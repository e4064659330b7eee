import Foundation
import WebImageCore

/// One caller waiting on a download: its continuation (resumed exactly once, by whoever
/// removes the requester from its transfer), its options and context, its progress handler.
struct DownloadRequester: Sendable {
    let id: UInt64
    let continuation: CheckedContinuation<ImageLoaderResult, any Error>
    let options: WebImageOptions
    let context: WebImageContext
    let progress: ImageLoaderProgressHandler?
    /// Requesters with equal signatures share one decode; `nil`: decodes alone.
    let signature: DecodeSignature?

    /// Whether it asked for partial images.
    var wantsPartialImages: Bool { options.contains(.progressiveLoad) }
}
