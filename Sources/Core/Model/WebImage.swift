public import Foundation

/// A decoded image: what caches count, transformers rewrite and targets show
/// (SDWebImage's `UIImage` with its `sd_` properties).
///
/// A `WebImage` holds one or more frames. Frames are either held eagerly (a still image, or
/// an animation decoded whole) or come lazily from an ``AnimatedImage`` so that a 500-frame GIF
/// never sits in memory whole. Either way ``bitmap`` (the first frame) is always at hand.
///
/// It is a value type (`Sendable`); copies share pixel storage until one is changed.
public struct WebImage: Sendable {
    /// How the frames are held.
    public enum Storage: Sendable {
        /// Every frame decoded and held (a still image has exactly one).
        case frames([ImageFrame])
        /// Frames decoded on demand through an animated coder.
        case animated(AnimatedImage)
        /// Frames made on demand from another image's frames: a lazily decoded animation after
        /// a transformer (see ``WebImage/mappingFrames(transformerKey:_:)``). No encoded data
        /// stands behind these frames, so a cache must encode them: the provider's
        /// ``AnimatedImageProvider/animatedImageData`` is empty.
        case transformed(AnimatedImage)
    }

    /// How the frames are held.
    public private(set) var storage: Storage
    /// The scale factor: pixels per point (>= 1; `@2x` images have 2). Values below 1 (and NaN)
    /// are clamped to 1.
    public var scale: Double {
        didSet { if !(scale >= 1) { scale = 1 } }
    }
    /// The format the image was decoded from (``ImageFormat/undefined`` if it was made in memory).
    public var format: ImageFormat
    /// How the image was made.
    public var metadata: ImageMetadata
    /// How many times an animation plays: 0 = forever, `nil` = the file states none.
    public var loopCount: Int?
    /// Arbitrary data a cache stores and restores with the image (SDWebImage's `sd_extendedObject`).
    public var extendedData: Data? {
        get { extras?.extendedData }
        set { extras = Extras.make(extendedData: newValue, colorProfile: extras?.colorProfile) }
    }
    /// The colour profile the pixel numbers are in, when the request kept the file's profile
    /// (``ColorProfileHandling/keep``); `nil` for sRGB (the default: coders convert tagged images
    /// to sRGB at decode). Transformers built on ``mappingFrames(transformerKey:_:)`` keep it, and
    /// encoders that take a profile embed it; set it to `nil` to strip it (thumbor's
    /// `strip_icc()`), which leaves the numbers as they are.
    public var colorProfile: ColorProfile? {
        get { extras?.colorProfile }
        set { extras = Extras.make(extendedData: extras?.extendedData, colorProfile: newValue) }
    }

    /// The attributes most images do not have, in one shared box (`nil` when neither is set):
    /// an image is copied at every step of a memory hit, and a box keeps the copy small
    /// (64 bytes, one reference to retain) where the two values inline would add 48 bytes.
    /// (Module-internal, so that every copy of an image's attributes, here and in the frame
    /// mapping and downscaling extensions, copies the one box.)
    var extras: Extras?

    final class Extras: Sendable {
        let extendedData: Data?
        let colorProfile: ColorProfile?

        private init(extendedData: Data?, colorProfile: ColorProfile?) {
            self.extendedData = extendedData
            self.colorProfile = colorProfile
        }

        static func make(extendedData: Data?, colorProfile: ColorProfile?) -> Extras? {
            extendedData == nil && colorProfile == nil ? nil : Extras(extendedData: extendedData, colorProfile: colorProfile)
        }
    }

    /// A still image.
    public init(bitmap: Bitmap, scale: Double = 1, format: ImageFormat = .undefined, metadata: ImageMetadata = .decoded) {
        self.storage = .frames([ImageFrame(bitmap: bitmap)])
        self.scale = scale >= 1 ? scale : 1
        self.format = format
        self.metadata = metadata
        self.loopCount = nil
    }

    /// An image from decoded frames.
    /// - Throws: ``WebImageError/Code/invalidArgument`` if `frames` is empty or the frames'
    ///   sizes differ.
    public init(frames: [ImageFrame], loopCount: Int? = 0, scale: Double = 1, format: ImageFormat = .undefined, metadata: ImageMetadata = .decoded) throws {
        guard let first = frames.first else {
            throw WebImageError(.invalidArgument, "an image needs at least one frame")
        }
        if let odd = frames.firstIndex(where: { $0.bitmap.size != first.bitmap.size }) {
            throw WebImageError(.invalidArgument, "frame \(odd) is \(frames[odd].bitmap.size), frame 0 is \(first.bitmap.size)")
        }
        self.storage = .frames(frames)
        self.scale = scale >= 1 ? scale : 1
        self.format = format
        self.metadata = metadata
        self.loopCount = frames.count > 1 ? loopCount : nil
    }

    /// An image whose frames come lazily from `animatedImage`.
    public init(animatedImage: AnimatedImage, scale: Double = 1, metadata: ImageMetadata = .decoded) {
        self.storage = .animated(animatedImage)
        self.scale = scale >= 1 ? scale : 1
        self.format = animatedImage.provider.format
        self.metadata = metadata
        self.loopCount = animatedImage.loopCount
    }

    /// The first frame's pixels (the poster of an animation).
    public var bitmap: Bitmap {
        switch storage {
        case .frames(let frames): frames[0].bitmap
        case .animated(let animated), .transformed(let animated): animated.posterFrame
        }
    }

    /// The size in pixels.
    public var pixelSize: PixelSize { bitmap.size }

    /// The size in points: pixels divided by ``scale``.
    public var pointSize: (width: Double, height: Double) {
        (Double(pixelSize.width) / scale, Double(pixelSize.height) / scale)
    }

    /// The number of frames (1 for a still image).
    public var frameCount: Int {
        switch storage {
        case .frames(let frames): frames.count
        case .animated(let animated), .transformed(let animated): animated.frameCount
        }
    }

    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frameCount > 1 }

    /// Whether frames come lazily from an ``AnimatedImage`` (decoded, or transformed on demand).
    public var isLazilyAnimated: Bool {
        switch storage {
        case .frames: false
        case .animated, .transformed: true
        }
    }

    /// Whether the source has an alpha channel.
    public var hasAlpha: Bool { bitmap.hasAlpha }

    /// The frame at `index`.
    /// - Throws: ``WebImageError/Code/invalidArgument`` for an index out of range, or the
    ///   animated provider's decoding error.
    public func frame(at index: Int) throws -> ImageFrame {
        try frame(at: index, buffering: true)
    }

    /// The frame at `index`; with `buffering` `false` a lazy frame that is not buffered is made
    /// now and not kept (``AnimatedImage/frame(at:buffering:)``). Readers that pass over the
    /// frames once, such as encoders, use `false` so that an animation never sits in memory whole.
    /// - Throws: ``WebImageError/Code/invalidArgument`` for an index out of range, or the
    ///   animated provider's decoding error.
    public func frame(at index: Int, buffering: Bool) throws -> ImageFrame {
        switch storage {
        case .frames(let frames):
            guard index >= 0, index < frames.count else {
                throw WebImageError(.invalidArgument, "frame index \(index) is outside 0..<\(frames.count)")
            }
            return frames[index]
        case .animated(let animated), .transformed(let animated):
            let bitmap = try animated.frame(at: index, buffering: buffering)
            return ImageFrame(bitmap: bitmap, duration: animated.durations[index], statedDuration: animated.statedDurations[index])
        }
    }

    /// The duration of every frame, in seconds: how long each plays.
    public var frameDurations: [Double] {
        switch storage {
        case .frames(let frames): frames.map(\.duration)
        case .animated(let animated), .transformed(let animated): animated.durations
        }
    }

    /// The delay the source states for every frame, in seconds (``ImageFrame/statedDuration``):
    /// ``frameDurations`` before the coder's playback rules, such as GIF and APNG delays of
    /// 10 ms or less playing for 100 ms. A still image has `[0]`.
    public var statedFrameDurations: [Double] {
        switch storage {
        case .frames(let frames): frames.map(\.statedDuration)
        case .animated(let animated), .transformed(let animated): animated.statedDurations
        }
    }

    /// Every frame, decoded now if they are lazy.
    /// - Throws: The animated provider's decoding error.
    public func allFrames() throws -> [ImageFrame] {
        switch storage {
        case .frames(let frames): return frames
        case .animated, .transformed: return try (0..<frameCount).map { try frame(at: $0) }
        }
    }

    /// A still image of the first frame, with the same scale, format and metadata.
    public var firstFrameOnly: WebImage {
        guard isAnimated else { return self }
        var still = WebImage(bitmap: bitmap, scale: scale, format: format, metadata: metadata)
        still.extras = extras
        return still
    }

    /// The memory the image holds now, in bytes: every held frame's pixels (for a lazy
    /// animation, the frames currently buffered plus the encoded data; for a transformed one,
    /// its buffered frames plus what it keeps of its source: the source's encoded data, not its
    /// poster or buffer), plus a kept colour profile. Caches use it as cost.
    public var memoryCost: Int {
        (colorProfile?.data.count ?? 0) + pixelMemoryCost
    }

    private var pixelMemoryCost: Int {
        switch storage {
        case .frames(let frames):
            return frames.reduce(0) { $0 + $1.bitmap.byteCount }
        case .animated(let animated):
            return animated.bufferedBytes + animated.provider.animatedImageData.count
        case .transformed(let animated):
            let source = (animated.provider as? FrameMappingProvider)?.sourceBytes ?? 0
            return animated.bufferedBytes + source
        }
    }

    /// An image whose frames are made on demand by `animatedImage` from another image's frames.
    init(transformedFrames animatedImage: AnimatedImage, scale: Double, format: ImageFormat, metadata: ImageMetadata) {
        self.storage = .transformed(animatedImage)
        self.scale = scale >= 1 ? scale : 1
        self.format = format
        self.metadata = metadata
        self.loopCount = animatedImage.loopCount
    }
}
