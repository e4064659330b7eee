import WebImageCore

/// The smallest copy of an image that still covers a target (issue 36): the one rule behind
/// the reduced decodes of shrink-on-load (``ShrinkOnLoad``: a JPEG's DCT scaling, libwebp's
/// scaled decode, a HEIF's stored thumbnail) and the halved-copy pyramid
/// (``ReducedOriginals``). A copy covers a target with a margin `m` when it is at least `m`
/// times the target on both sides; each user picks its margin:
/// - ``draft`` (1): a JPEG's reduced decode, Pillow's `draft` rule, which thumbor applies;
/// - ``lastStepResample`` (2): a reduced decode of a format thumbor decodes whole, so that a
///   Lanczos-3 resize still does at least the last 2x, as it does from the whole image;
/// - ``pyramidGap`` (3): a halved copy to resize from.
enum CoveringCopy {
    /// Pillow's `draft`: the copy may be exactly the target.
    static let draft = 1
    /// At least twice the target: the resize that follows does the last 2x.
    static let lastStepResample = 2
    /// The halved-copy pyramid's margin: a copy at least 3x the target.
    static let pyramidGap = 3

    /// Whether `copy` is at least `margin` times `target` on both sides.
    static func covers(_ copy: PixelSize, _ target: PixelSize, margin: Int) -> Bool {
        copy.width >= margin * target.width && copy.height >= margin * target.height
    }

    /// The most halvings, `k` in 1...`maximum`, of `size` (each side divided by 2^k, rounded
    /// down) that still cover `target` with `margin`; `nil` when not even one does.
    static func halvings(of size: PixelSize, covering target: PixelSize, margin: Int, maximum: Int) -> Int? {
        guard !target.isEmpty, !size.isEmpty else { return nil }
        var shift = 0
        while shift < maximum,
              covers(PixelSize(width: size.width >> (shift + 1), height: size.height >> (shift + 1)), target, margin: margin) {
            shift += 1
        }
        return shift > 0 ? shift : nil
    }

    /// The smallest (fewest pixels) of `candidates` that covers `target` with `margin`, `nil`
    /// when none does.
    static func smallest(of candidates: [PixelSize], covering target: PixelSize, margin: Int) -> PixelSize? {
        candidates.filter { !$0.isEmpty && covers($0, target, margin: margin) }
            .min { ($0.pixelCount ?? .max) < ($1.pixelCount ?? .max) }
    }
}
