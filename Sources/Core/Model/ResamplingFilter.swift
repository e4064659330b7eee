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
    package var support: Double {
        switch self {
        case .nearest: 0
        case .box: 0.5
        case .bilinear: 1
        case .bicubic: 2
        case .lanczos3: 3
        }
    }

    /// The kernel's value at `x` (in source pixels at scale 1). ``nearest`` is treated as a box.
    package func weight(at x: Double) -> Double {
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
