import CJXL
import WebImageCore

/// What a JPEG XL file's basic info says, read before any pixel is decoded.
struct JXLImageInfo: Sendable {
    /// The size of the decoded pixels. When libjxl applies the orientation (the default), it
    /// reports the upright size (and orientation 1); otherwise the stored size.
    var outputSize: PixelSize
    /// Whether the image has an alpha channel.
    var hasAlpha: Bool
    /// Whether the codestream says it is an animation.
    var isAnimated: Bool
    /// The animation's loop count (0 = forever); 0 for a still.
    var loopCount: Int
    /// Seconds per tick of frame durations (tps denominator / numerator); 0 for a still.
    var secondsPerTick: Double

    /// Reads `info`.
    init(_ info: JxlBasicInfo) {
        outputSize = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
        hasAlpha = info.alpha_bits > 0
        isAnimated = info.have_animation != 0
        loopCount = isAnimated ? Int(info.animation.num_loops) : 0
        let numerator = Double(info.animation.tps_numerator)
        secondsPerTick = isAnimated && numerator > 0 ? Double(info.animation.tps_denominator) / numerator : 0
    }

    /// The pixel limit, checked before any pixel buffer is set: throws
    /// ``WebImageError/Code/badImageData`` for an empty image and
    /// ``WebImageError/Code/imageTooLarge`` over `options.maxPixelCount` (one frame) or, for one frame of the source's size, `options.maxTotalPixelCount`.
    func checkLimit(_ options: ImageDecodeOptions, byteCount: Int) throws {
        try JXLLimits.checkFrame(outputSize, options: options, byteCount: byteCount)
        try JXLLimits.checkTotal(frameCount: 1, frameSize: outputSize, options: options, byteCount: byteCount)
    }
}
