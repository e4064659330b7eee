import WebImageCore

/// The frames an encoder writes, made one at a time: frame `n` is read from the image
/// (decoded now, without buffering, for a lazy animation; transformed now for a lazily
/// transformed one) and downsized to `maxPixelSize` when asked for, and nothing keeps it once
/// the encoder drops it. So an encoder that writes frame `n` before asking for frame `n + 1`
/// holds a bounded number of full frames however long the animation is.
struct PreparedFrames {
    let image: WebImage
    let options: ImageEncodeOptions
    /// 1 with `firstFrameOnly` or for a still image, else the image's frame count.
    let count: Int

    init(image: WebImage, options: ImageEncodeOptions) {
        self.image = image
        self.options = options
        self.count = options.firstFrameOnly || !image.isAnimated ? 1 : image.frameCount
    }

    /// Whether more than one frame is written.
    var isAnimated: Bool { count > 1 }

    /// Frame `index`, downsized; a single frame has duration 0, an animation's keep their
    /// durations and stated durations.
    /// - Throws: The image's decoding or transforming error; the resampler's error.
    func frame(at index: Int) throws -> ImageFrame {
        if count == 1 {
            return ImageFrame(bitmap: try EncodingPreparation.bitmap(of: image, maxPixelSize: options.maxPixelSize))
        }
        var frame = try image.frame(at: index, buffering: false)  // keeps the duration and the stated duration
        frame.bitmap = try EncodingPreparation.fitted(frame.bitmap, maxPixelSize: options.maxPixelSize)
        return frame
    }
}
