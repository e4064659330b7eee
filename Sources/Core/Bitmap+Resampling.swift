import Foundation

/// A resampling filter.
///
/// The filters are the classic separable reconstruction kernels. Each has a `support`: the
/// half-width of the kernel, in source pixels, when the image is enlarged. When the image is
/// reduced the kernel is stretched by the reduction factor so that every source pixel
/// contributes (area-correct downscaling, no aliasing from skipped pixels).
///
/// | filter | kernel | support |
/// |---|---|---|
/// | `nearest` | the source pixel under the output pixel's center, copied exactly | — |
/// | `box` | 1 on (-0.5, 0.5] (area averaging when reducing) | 0.5 |
/// | `bilinear` | triangle 1 - abs(x) | 1 |
/// | `bicubic` | Keys cubic convolution, a = -0.5 (Catmull-Rom) | 2 |
/// | `lanczos3` | sinc(x) sinc(x / 3) | 3 |
public enum ResamplingFilter: String, Sendable, CaseIterable {
    /// Nearest neighbour: copies the source pixel nearest to each output pixel's center.
    case nearest
    /// Box (area average when reducing, pixel replication when enlarging).
    case box
    /// Bilinear: the triangle (tent) filter.
    case bilinear
    /// Bicubic: Keys cubic convolution with a = -0.5.
    case bicubic
    /// Lanczos with three lobes: the sharpest; the default for reducing.
    case lanczos3

    /// The half-width of the kernel in source pixels at scale 1 (0 for ``nearest``).
    public var support: Double {
        switch self {
        case .nearest: 0
        case .box: 0.5
        case .bilinear: 1
        case .bicubic: 2
        case .lanczos3: 3
        }
    }

    /// The kernel's value at `x` (in source pixels at scale 1). ``nearest`` is treated as a box.
    public func weight(at x: Double) -> Double {
        switch self {
        case .nearest, .box:
            return (x > -0.5 && x <= 0.5) ? 1 : 0
        case .bilinear:
            let t = abs(x)
            return t < 1 ? 1 - t : 0
        case .bicubic:
            let a = -0.5
            let t = abs(x)
            if t < 1 { return ((a + 2) * t - (a + 3)) * t * t + 1 }
            if t < 2 { return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a }
            return 0
        case .lanczos3:
            let t = abs(x)
            if t < 1e-12 { return 1 }
            guard t < 3 else { return 0 }
            let px = Double.pi * t
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}

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
