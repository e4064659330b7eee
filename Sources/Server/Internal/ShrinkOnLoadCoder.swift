import Foundation
import WebImageCore

/// The coder of one shrink-on-load request (``ShrinkOnLoad``): reads the source's headers,
/// plans the request on the source's full size, and decodes at the reduced size that covers
/// the plan (or as the base coder would, for an animated source or a reduction under 2x).
/// Everything else is the base coder's.
///
/// A class, so that the manager's and the downloader's decode sharing (which compares the
/// context's values) never hands one request's reduced decode to another request's decode:
/// each instance is its own identity. It records the source's headers
/// (``sourceProperties``) for the render, which plans on its full upright size, and for
/// ``ShrunkOriginals``.
final class ShrinkOnLoadCoder: SourceCoderWrapper, @unchecked Sendable {
    let base: any ImageCoder
    let plan: @Sendable (PixelSize) -> ThumborPlan
    private let decoded = Locked<ImageProperties?>(nil)

    /// `@unchecked Sendable`: `base` and `plan` are Sendable lets; `decoded` is locked.
    init(base: any ImageCoder, plan: @escaping @Sendable (PixelSize) -> ThumborPlan) {
        self.base = base
        self.plan = plan
    }

    /// The headers of the last source this coder decoded, `nil` before any decode.
    var sourceProperties: ImageProperties? { decoded.withLock { $0 } }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> WebImage {
        var options = options
        if options.thumbnailPixelSize == nil, options.scaleDownLimitBytes == nil,
           let properties = sourceProperties(of: data, options: options) {
            decoded.withLock { $0 = properties }
            // Read once: the memory budget inside reserves from the same headers.
            options.context[SourceHeadersKey.self] = properties
            if properties.decodeLimitError(options: options) == nil,
               let size = ShrinkOnLoad.reducedSize(for: properties, plan: plan) {
                options.thumbnailPixelSize = size
                options.preserveAspectRatio = false
                if properties.format == .png {
                    // The reduction alone (no resample to the size): the render resizes once.
                    options.thumbnailBoxFactor = ShrinkOnLoad.boxFactor(of: properties.pixelSize, reducedTo: size)
                }
            }
        }
        return try base.decode(data, options: options)
    }
}
