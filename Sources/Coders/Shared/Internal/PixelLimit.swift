import WebImageCore

/// The header check every decoder makes before it allocates pixels.
enum PixelLimit {
    /// Throws ``WebImageError/Code/badImageData`` for an empty size and
    /// ``WebImageError/Code/imageTooLarge`` when `size` has more pixels than
    /// `options.maxPixelCount` (or overflows), or when the one frame's source size is over
    /// `options.maxTotalPixelCount`. Animations check their frames with ``checkTotal``.
    /// - Parameters:
    ///   - size: The size the header claims.
    ///   - format: The format's name, for the message.
    ///   - byteCount: The size of the data, for the message.
    static func check(_ size: PixelSize, options: ImageDecodeOptions, format: String, byteCount: Int) throws {
        guard !size.isEmpty else {
            throw WebImageError(.badImageData, "\(format) data of \(byteCount) bytes claims an empty image (\(size))")
        }
        guard let pixels = size.pixelCount, pixels <= options.maxPixelCount else {
            throw WebImageError(
                .imageTooLarge,
                "\(format) image of \(size) (\(byteCount) bytes of data) is over the limit of \(options.maxPixelCount) pixels"
            )
        }
        try checkTotal(frameCount: 1, frameSize: size, options: options, format: format, byteCount: byteCount)
    }

    /// Throws ``WebImageError/Code/imageTooLarge`` when an animation of `frameCount` frames has
    /// more than `options.maxFrameCount` frames, or when `frameCount` x `frameSize` (the source
    /// canvas, whatever size the frames are decoded at: a thumbnail still decompresses every
    /// source pixel) is over `options.maxTotalPixelCount` (or overflows). Made from the
    /// headers, before any frame is decoded.
    static func checkTotal(frameCount: Int, frameSize: PixelSize, options: ImageDecodeOptions, format: String, byteCount: Int) throws {
        try checkFrameCount(frameCount, options: options, format: format, byteCount: byteCount)
        let perFrame = frameSize.pixelCount ?? Int.max
        let (total, overflow) = perFrame.multipliedReportingOverflow(by: max(1, frameCount))
        guard !overflow, total <= options.maxTotalPixelCount else {
            throw WebImageError(
                .imageTooLarge,
                "\(format) image of \(frameCount) frame\(frameCount == 1 ? "" : "s") of \(frameSize) (\(overflow ? "over \(Int.max)" : "\(total)") source pixels in all, \(byteCount) bytes of data) is over the limit of \(options.maxTotalPixelCount) pixels per image"
            )
        }
    }

    /// Throws ``WebImageError/Code/imageTooLarge`` when `frameCount` is over
    /// `options.maxFrameCount`.
    /// - Parameter orMore: Whether the parser stopped counting at `frameCount` (more may follow).
    static func checkFrameCount(_ frameCount: Int, orMore: Bool = false, options: ImageDecodeOptions, format: String, byteCount: Int) throws {
        guard frameCount <= options.maxFrameCount else {
            throw WebImageError(
                .imageTooLarge,
                "\(format) animation of \(frameCount)\(orMore ? " or more" : "") frames (\(byteCount) bytes of data) is over the limit of \(options.maxFrameCount) frames"
            )
        }
    }
}
