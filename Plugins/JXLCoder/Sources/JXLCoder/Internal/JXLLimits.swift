import WebImageCore

/// The checks made from the headers before libjxl is given an output buffer: the pixels of
/// one frame, the frame count and the pixels of all frames together (the rules of Core's
/// ``ImageDecodeOptions``).
enum JXLLimits {
    /// Throws ``WebImageError/Code/badImageData`` for an empty size and
    /// ``WebImageError/Code/imageTooLarge`` when `size` has more pixels than
    /// `options.maxPixelCount`.
    static func checkFrame(_ size: PixelSize, options: ImageDecodeOptions, byteCount: Int) throws {
        guard !size.isEmpty else {
            throw WebImageError(.badImageData, "JPEG XL data of \(byteCount) bytes claims an empty image (\(size))")
        }
        guard let pixels = size.pixelCount, pixels <= options.maxPixelCount else {
            throw WebImageError(.imageTooLarge, "JPEG XL image of \(size) (\(byteCount) bytes of data) is over the limit of \(options.maxPixelCount) pixels")
        }
    }

    /// Throws ``WebImageError/Code/imageTooLarge`` when `frameCount` is over
    /// `options.maxFrameCount`.
    /// - Parameter orMore: Whether counting stopped at `frameCount` (more may follow).
    static func checkFrameCount(_ frameCount: Int, orMore: Bool = false, options: ImageDecodeOptions, byteCount: Int) throws {
        guard frameCount <= options.maxFrameCount else {
            throw WebImageError(.imageTooLarge, "JPEG XL animation of \(frameCount)\(orMore ? " or more" : "") frames (\(byteCount) bytes of data) is over the limit of \(options.maxFrameCount) frames")
        }
    }

    /// Throws ``WebImageError/Code/imageTooLarge`` when there are more than
    /// `options.maxFrameCount` frames, or `frameCount` x `frameSize` (the source's frame size:
    /// libjxl decodes every frame at full size even for a thumbnail, so the work grows with it,
    /// as Core's rule for GIF and APNG says) is over `options.maxTotalPixelCount`.
    static func checkTotal(frameCount: Int, frameSize: PixelSize, options: ImageDecodeOptions, byteCount: Int) throws {
        try checkFrameCount(frameCount, options: options, byteCount: byteCount)
        let (total, overflow) = (frameSize.pixelCount ?? Int.max).multipliedReportingOverflow(by: max(1, frameCount))
        guard !overflow, total <= options.maxTotalPixelCount else {
            throw WebImageError(
                .imageTooLarge,
                "JPEG XL image of \(frameCount) frame\(frameCount == 1 ? "" : "s") of \(frameSize) (\(overflow ? "over \(Int.max)" : "\(total)") pixels in all, \(byteCount) bytes of data) is over the limit of \(options.maxTotalPixelCount) pixels per image"
            )
        }
    }
}
