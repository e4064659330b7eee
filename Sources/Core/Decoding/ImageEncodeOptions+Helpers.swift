public import Foundation

extension ImageEncodeOptions {
    /// The size `size` shrinks to, keeping its aspect ratio, so that neither side is over
    /// ``maxPixelSize``; `nil` when it fits already (or there is no limit). Sides are rounded
    /// to the nearest pixel, at least 1.
    /// - Parameter size: The size of the image to encode.
    public func fittedSize(for size: PixelSize) -> PixelSize? {
        guard let limit = maxPixelSize, !limit.isEmpty, !size.isEmpty,
              size.width > limit.width || size.height > limit.height else { return nil }
        let ratio = min(Double(limit.width) / Double(size.width), Double(limit.height) / Double(size.height))
        return PixelSize(
            width: max(1, min(limit.width, Int((Double(size.width) * ratio).rounded()))),
            height: max(1, min(limit.height, Int((Double(size.height) * ratio).rounded())))
        )
    }

    /// `bitmap` downsized to ``fittedSize(for:)`` with Lanczos-3, or `bitmap` itself when it
    /// fits: what an encoder does with ``maxPixelSize`` before it writes (the plug-in coders use
    /// it for every frame).
    /// - Throws: ``WebImageError/Code/invalidArgument`` from the resampler (a size over its limit).
    public func fitted(_ bitmap: Bitmap) throws -> Bitmap {
        guard let size = fittedSize(for: bitmap.size) else { return bitmap }
        return try bitmap.resampled(to: size, filter: .lanczos3)
    }

    /// The largest output under a byte limit, for encoders that honour ``maxFileSize`` by
    /// lowering their quality: the output of the highest step `s` in `0..<steps` whose size is
    /// at most `limit` while step `s + 1`'s is over it (found by bisection, so about log2(steps)
    /// encodes), or step 0's output when none fits.
    ///
    /// The caller maps a step to its own quality scale (WebP's 0...100, AVIF's quantizer, ...)
    /// and passes only the steps below the quality whose output was already too large.
    /// - Parameters:
    ///   - limit: The byte limit (``maxFileSize``).
    ///   - steps: How many quality steps lie below the first output that did not fit.
    ///   - encode: Encodes at a step (0 is the lowest quality).
    /// - Throws: What `encode` throws.
    public static func largestOutput(fitting limit: Int, steps: Int, _ encode: (Int) throws -> Data) throws -> Data {
        var low = 0, high = steps - 1
        var best: Data?
        while low <= high {
            let middle = (low + high) / 2
            let data = try encode(middle)
            if data.count <= limit {
                best = data
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return try best ?? encode(0)
    }
}
