import Foundation
import WebImageCore

/// What decides the image a downloaded body decodes to, for one requester: two requesters
/// of one download with equal signatures get one decode between them.
///
/// A requester gets no signature (it decodes on its own) when it cannot be compared safely:
/// its context sets ``WebImageContext/imageDecodeOptions`` (not comparable), a coder that is
/// not a class instance, or any key this type does not know (a plug-in's coder may read it).
struct DecodeSignature: Hashable, Sendable {
    private let coder: ObjectIdentifier?
    private let flags: UInt64
    private let scaleFactor: Double
    private let thumbnail: PixelSize?
    private let preserveAspectRatio: Bool
    private let scaleDownLimit: Int?
    private let cacheKey: String

    /// The option flags that change a decode.
    private static let decodeFlags: WebImageOptions = [.avoidDecodeImage, .decodeFirstFrameOnly, .preloadAllFrames, .scaleDownLargeImages]

    init?(url: URL, options: WebImageOptions, context: WebImageContext) {
        guard context.imageDecodeOptions == nil else { return nil }
        if let coder = context.imageCoder {
            guard type(of: coder) is AnyClass else { return nil }
            self.coder = ObjectIdentifier(coder as AnyObject)
        } else {
            self.coder = nil
        }
        // Every key set must be one known here: compared below, or known not to change a decode.
        let known: [Bool] = [
            context.imageCoder != nil, context.imageScaleFactor != nil, context.imageThumbnailPixelSize != nil,
            context.imagePreserveAspectRatio != nil, context.imageScaleDownLimitBytes != nil, context.imageCacheKey != nil,
            context.cacheKeyFilter != nil, context.imageCache != nil, context.imageLoader != nil, context.imageTransformer != nil,
            context.cacheSerializer != nil, context.queryCacheType != nil, context.storeCacheType != nil,
            context.originalQueryCacheType != nil, context.originalStoreCacheType != nil, context.originalImageCache != nil,
            context.imageForceDecodePolicy != nil, context.imageEncodeOptions != nil, context.downloadRequestModifier != nil,
            context.downloadResponseModifier != nil, context.downloadDecryptor != nil, context.optionsProcessor != nil,
            context.callbackQueue != nil, context.setImageOperationKey != nil, context.loaderCachedImage != nil,
            context.imageEventSink != nil,
        ]
        guard known.filter({ $0 }).count == context.count else { return nil }
        let decodeOptions = ImageDataDecoding.decodeOptions(for: url, options: options, context: context)
        flags = options.intersection(Self.decodeFlags).rawValue
        scaleFactor = decodeOptions.scaleFactor
        thumbnail = decodeOptions.thumbnailPixelSize
        preserveAspectRatio = decodeOptions.preserveAspectRatio
        scaleDownLimit = decodeOptions.scaleDownLimitBytes
        cacheKey = ImageDataDecoding.cacheKey(for: url, context: context)
    }
}
