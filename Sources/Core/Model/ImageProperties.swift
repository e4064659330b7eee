/// What an image's headers say, read without decoding any pixel (see ``ImageHeaderReader``):
/// format, stored size, orientation, frames, loop count, stated frame delays and alpha.
///
/// The values are the ones a full decode with default options would report: ``pixelSize`` is
/// the stored size (``orientedPixelSize`` the size it shows at once the EXIF orientation is
/// applied), ``frameCount`` the frames a decode would show (1 for a still), ``frameDurations``
/// the delays as the file states them (``WebImage/statedFrameDurations``), ``hasAlpha`` whether
/// the format and headers carry transparency. Reading them allocates nothing in proportion to
/// the pixels, so it also describes images a decode would refuse: ``decodeLimitError(options:)``
/// says whether and why.
public struct ImageProperties: Hashable, Sendable {
    /// The format of the data.
    public var format: ImageFormat
    /// The size the pixels are stored at (before the EXIF orientation).
    public var pixelSize: PixelSize
    /// The EXIF orientation, 1...8 (1: as stored; 5...8 swap width and height).
    public var orientation: Int
    /// The number of frames a decode shows (>= 1).
    public var frameCount: Int
    /// How many times the animation plays: 0 = forever, `nil` = the file states none. As on a
    /// decoded ``WebImage``: a still has none, unless it is the one frame of an animation (an
    /// APNG whose only frame is not its default image).
    public var loopCount: Int?
    /// Each frame's delay as the file states it, in seconds; `[0]` for a still.
    public var frameDurations: [Double]
    /// Whether the image carries transparency (an alpha channel, a transparent colour, frames
    /// that leave parts of the canvas uncovered).
    public var hasAlpha: Bool
    /// The colour space the file declares, in words, when the reader looks: an embedded ICC
    /// profile's description (`"ICC: Adobe RGB (1998)"`), `"sRGB"`, code points
    /// (`"Display P3 (cICP)"`), `"untagged"`; `nil` when the reader does not say. A decode
    /// converts a profile that is not sRGB to sRGB (``ImageMetadata/colorConverted``).
    public var colorSpace: String?
    /// The sizes of the reduced copies the file stores (a HEIF's thumbnail items), upright,
    /// each of the image's aspect ratio: a decode asked for one of them (a
    /// ``ImageDecodeOptions/thumbnailPixelSize`` of exactly that size) reads the copy instead of
    /// the full image. Empty when the file stores none or the reader does not look.
    public var embeddedThumbnailSizes: [PixelSize] = []

    /// The properties of an image; `frameDurations` defaults to one 0 per frame.
    public init(format: ImageFormat, pixelSize: PixelSize, orientation: Int = 1, frameCount: Int = 1, loopCount: Int? = nil, frameDurations: [Double]? = nil, hasAlpha: Bool) {
        self.format = format
        self.pixelSize = pixelSize
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        self.frameCount = max(1, frameCount)
        self.loopCount = loopCount
        self.frameDurations = frameDurations ?? [Double](repeating: 0, count: max(1, frameCount))
        self.hasAlpha = hasAlpha
    }

    /// The size the image shows at: ``pixelSize`` with width and height swapped for
    /// orientations 5...8.
    public var orientedPixelSize: PixelSize {
        orientation >= 5 ? PixelSize(width: pixelSize.height, height: pixelSize.width) : pixelSize
    }

    /// The error a full-size decode under `options` would give because of the limits, or `nil`
    /// when the image is within them: ``WebImageError/Code/imageTooLarge`` when one frame has
    /// more pixels than ``ImageDecodeOptions/maxPixelCount``, when the frames together
    /// (frames x width x height of the source) have more than
    /// ``ImageDecodeOptions/maxTotalPixelCount``, or when there are more frames than
    /// ``ImageDecodeOptions/maxFrameCount``. A coder may still refuse for reasons of its own
    /// (a JPEG's scans or coefficient memory). A thumbnail decode is held to the same figures:
    /// the limits count source pixels.
    public func decodeLimitError(options: ImageDecodeOptions = ImageDecodeOptions()) -> WebImageError? {
        let frames = options.firstFrameOnly ? 1 : frameCount
        guard let pixels = pixelSize.pixelCount, pixels <= options.maxPixelCount else {
            return WebImageError(.imageTooLarge, "\(format) image of \(pixelSize) is over the limit of \(options.maxPixelCount) pixels per frame")
        }
        guard frames <= options.maxFrameCount else {
            return WebImageError(.imageTooLarge, "\(format) animation of \(frames) frames is over the limit of \(options.maxFrameCount) frames")
        }
        let (total, overflow) = pixels.multipliedReportingOverflow(by: frames)
        guard !overflow, total <= options.maxTotalPixelCount else {
            return WebImageError(.imageTooLarge, "\(format) image of \(frames) frames of \(pixelSize) (\(overflow ? "over \(Int.max)" : "\(total)") pixels in all) is over the limit of \(options.maxTotalPixelCount) pixels per image")
        }
        return nil
    }
}
