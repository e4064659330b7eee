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
    /// The requester's decode stage (coder, options, checks).
    let decode: ImageDecodeRequest
    /// Requesters with equal keys share one decode; `nil`: decodes alone.
    let sharingKey: ImageDecodeSharingKey?

    /// Whether it asked for partial images.
    var wantsPartialImages: Bool { options.contains(.progressiveLoad) }
}
