import SwiftWebImage

/// Picks one frame of an image as a still image: `convert --frame N`.
///
/// It runs first in the request's transformer pipeline, so the manager (with
/// `transformAnimatedImage`) hands it the decoded animation and the other transformers see
/// one frame. Frames are numbered from 0; a still image has frame 0 only.
///
/// Key: `FrameSelection(N)`.
///
/// Thread-safety: an immutable value.
struct FrameSelectionTransformer: ImageTransformer {
    /// The frame to keep, from 0.
    let index: Int

    var transformerKey: String { "FrameSelection(\(index))" }

    /// The frame at ``index`` as a still image with the image's scale, format and metadata.
    /// - Throws: ``WebImageError/Code/invalidArgument`` naming the frame count when the image
    ///   has no such frame; the decoder's error for a frame that does not decode.
    func transform(_ image: WebImage, forKey key: String) throws -> WebImage {
        let count = image.frameCount
        guard index >= 0, index < count else {
            let range = count == 1 ? "only frame 0" : "frames 0 to \(count - 1)"
            throw WebImageError(.invalidArgument, "there is no frame \(index): the image has \(range)")
        }
        let frame = try image.frame(at: index)
        return WebImage(bitmap: frame.bitmap, scale: image.scale, format: image.format, metadata: image.metadata)
    }
}
