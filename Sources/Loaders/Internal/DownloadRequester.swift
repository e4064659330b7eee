import Foundation
import WebImageCore

/// One caller waiting on a download: where its result goes (called exactly once, by whoever
/// removes the requester from its transfer), its options and context, its progress handler.
struct DownloadRequester: Sendable {
    let id: UInt64
    /// Delivers the result: resumes the async caller's continuation, or calls the completion
    /// handler on its callback queue. Never called under a lock.
    let deliver: @Sendable (Result<ImageLoaderResult, any Error>) -> Void
    /// Whether `deliver` only resumes a continuation (the async API): cheap, runs no user
    /// code, so it may be called on the libcurl event-loop thread.
    var deliversByResuming = false
    let options: WebImageOptions
    let context: WebImageContext
    let progress: ImageLoaderProgressHandler?
    /// The requester's decode stage (coder, options, checks).
    let decode: ImageDecodeRequest
    /// Requesters with equal keys share one decode; `nil`: decodes alone.
    let sharingKey: ImageDecodeSharingKey?

    /// Ends the request with `result`.
    func resume(with result: Result<ImageLoaderResult, any Error>) {
        deliver(result)
    }

    /// Ends the request with `error`.
    func resume(throwing error: any Error) {
        deliver(.failure(error))
    }

    /// Whether it asked for partial images.
    var wantsPartialImages: Bool { options.contains(.progressiveLoad) }
}
