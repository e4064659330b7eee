import Foundation

extension Bitmap {
    /// The most pixels ``resampled(to:filter:)`` produces: 2^28 (256 megapixels, 1 GiB of RGBA).
    /// Larger sizes throw instead of trying to allocate the memory.
    public static let maximumResampledPixelCount = 1 << 28

    /// Returns this bitmap resampled to `size` with `filter` (premultiplied internally, straight alpha out; exact output size; throws WebImageError(.invalidArgument) for an empty size).
    ///
    /// The resampler is a separable two-pass convolution with precomputed weights: the filter's
    /// support is scaled by the reduction factor when reducing (every source pixel counts), edges
    /// are clamped (the pixels beyond an edge repeat the edge pixel), and the color channels are
    /// filtered premultiplied by alpha in floating point, so a transparent neighbour never
    /// darkens an edge (no dark halos) and even a nearly transparent pixel keeps its color.
    /// Output pixels whose alpha rounds to 0 are `(0, 0, 0, 0)`.
    ///
    /// - ``ResamplingFilter/nearest`` copies source pixels exactly (no premultiplication).
    /// - A bitmap resampled to its own size is returned unchanged (row padding included).
    /// - Otherwise the output keeps ``hasAlpha`` and its rows are tightly packed
    ///   (`bytesPerRow == width * 4`).
    /// - Memory beyond the output: a ring of 16-byte-per-pixel intermediate rows as tall as the
    ///   widest vertical window (4000x3000 to 400x300 with Lanczos3: 63 rows of 400 pixels,
    ///   about 400 KB), or one source-wide row when the vertical pass goes first.
    ///
    /// Thread-safety: a pure function of its inputs; call it from any thread.
    ///
    /// - Parameters:
    ///   - size: The exact output size; both sides must be at least 1.
    ///   - filter: The kernel; defaults to ``ResamplingFilter/lanczos3``.
    /// - Returns: A new bitmap of exactly `size`.
    /// - Throws: ``WebImageError/Code/invalidArgument`` if `size` is empty, if this bitmap is
    ///   empty, or if `size` has more than ``maximumResampledPixelCount`` pixels.
    public func resampled(to size: PixelSize, filter: ResamplingFilter = .lanczos3) throws -> Bitmap {
        guard !size.isEmpty else {
            throw WebImageError(.invalidArgument, "cannot resample a \(width)x\(height) bitmap to the empty size \(size)")
        }
        guard width > 0, height > 0 else {
            throw WebImageError(.invalidArgument, "cannot resample the empty \(width)x\(height) bitmap to \(size)")
        }
        guard let pixels = size.pixelCount, pixels <= Self.maximumResampledPixelCount else {
            throw WebImageError(.invalidArgument, "resampling \(width)x\(height) to \(size) exceeds the limit of \(Self.maximumResampledPixelCount) pixels")
        }
        if size == self.size {
            return self
        }
        if filter == .nearest {
            return try ResamplingEngine.nearest(self, to: size)
        }
        return try ResamplingEngine.convolve(self, to: size, filter: filter)
    }
}
