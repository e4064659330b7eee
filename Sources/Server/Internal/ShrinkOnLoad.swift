import Foundation
import WebImageCore
import WebImageTransformers

/// Shrink-on-load (issue 36): a request whose result is much smaller than its source decodes
/// the source at a reduced size that still covers the result instead of at full size, as
/// thumbor's PIL engine (Pillow's `draft`, JPEG only) and libvips' `thumbnail` do: a JPEG at
/// the largest of the DCT reductions 1/2, 1/4 and 1/8 that still covers it; a WebP by
/// libwebp's scaled decode (1/2, 1/4, ...), a HEIF from a stored thumbnail and a PNG by its
/// coder's streaming reducer (block means at 1/2, 1/4, ..., never a full-size bitmap), each at
/// least twice the result
/// (``decodeSize(for:minimum:)``, ``CoveringCopy``). The plan is always computed on the
/// source's full size (so sizes and focal points are exactly thumbor's), then mapped onto the
/// reduced pixels.
///
/// Which requests take it (decisions):
/// - only requests that ask for a size, of sources the server's downloader or file loader reads;
/// - not `trim` (its scan needs the source's own pixels), not `smart` with the attention crop
///   (it looks at the source; the default `smart` is a centre crop, as thumbor's without a
///   detector) and not `/meta/` (its JSON describes the source's own geometry);
/// - only JPEG, WebP, HEIF and PNG stills and only plans without a crop (a `fit-in` box, or a size
///   of the source's aspect ratio): thumbor crops first, which loads the image whole, so its
///   `draft` only reduces these; reducing more would move the pixels away from thumbor's
///   answers. thumbor decodes WebP, HEIF and PNG whole: their reduced copies stay at least twice
///   the result, so that the last 2x is still thumbor's Lanczos (measured in the tests: over
///   40 dB PSNR against the whole decode's answer on photos);
/// - only when the reduction is at least 2x on both sides.
///
/// The reduced image is kept by the server (``ShrunkOriginals``) under the original's key and the
/// size it was decoded at, never under the original's key alone, so that every later request
/// that needs that copy (any `fit-in` box the same scale covers) starts from it; the
/// manager's load carries a marker of what the request covers (``variantKey(for:)``,
/// `ShrinkOnLoad(fit-in 512x512 crop -)`), so that only identical requests share one decode.
/// The original's bytes are stored on disk as for any load, so a later request that needs more
/// pixels decodes them again at the size it needs, without a download.
enum ShrinkOnLoad {
    /// Whether `request` for a source at `url` may start from a reduced decode: it asks for a
    /// size (a side given and not `orig`), has no `trim` or `smart`, and the source is read by
    /// the server's downloader or file loader (which decode the bytes with the request's coder;
    /// a scheme loader such as Photos may hand over an image of its own).
    static func isEligible(_ request: ThumborRequest, url: URL, smart: SmartCropMode = .centre) -> Bool {
        let asksForASize = ((request.width ?? 0) != 0 && !request.usesSourceWidth) || ((request.height ?? 0) != 0 && !request.usesSourceHeight)
        let scheme = url.scheme?.lowercased() ?? ""
        // Only JPEG, WebP, HEIF and PNG are reduced: a source named as another format is not worth
        // the disk-only query of the original (the decode would be whole anyway).
        let otherFormats: Set<String> = ["gif", "avif", "jxl", "tif", "tiff", "bmp", "ico", "cur", "svg", "pdf"]
        guard !otherFormats.contains(url.pathExtension.lowercased()) else { return false }
        return asksForASize && request.trim == nil && !(request.smart && smart == .attention) && !request.meta && ["http", "https", "file"].contains(scheme)
    }

    /// The least size (upright, aspect ratio kept) a decode of a source of `source` (upright)
    /// must have for `plan`, or `nil` when that is not at least 2x smaller than the source on
    /// both sides.
    static func minimumSize(source: PixelSize, plan: ThumborPlan) -> PixelSize? {
        guard !source.isEmpty, !plan.size.isEmpty else { return nil }
        let region = plan.crop ?? PixelRect(x: 0, y: 0, size: source)
        guard region.width > 0, region.height > 0 else { return nil }
        // A crop makes thumbor load the image whole (Pillow's crop loads it before `draft`).
        guard region.size == source else { return nil }
        // The region is resized to exactly plan.size: each side needs its own scale; the decode
        // keeps the aspect ratio, so it takes the larger.
        let scale = max(Double(plan.size.width) / Double(region.width), Double(plan.size.height) / Double(region.height))
        guard scale <= 0.5 else { return nil }
        let width = Int((Double(source.width) * scale).rounded(.up))
        let height = Int((Double(source.height) * scale).rounded(.up))
        return PixelSize(width: max(1, min(source.width, width)), height: max(1, min(source.height, height)))
    }

    /// The size a source whose headers are `properties` is decoded at for a request planned by
    /// `plan` (on the source's upright size), upright, or `nil` to decode it whole: a still's
    /// ``decodeSize(for:minimum:)`` of the plan's ``minimumSize(source:plan:)``. One answer for
    /// the decode (``ShrinkOnLoadCoder``) and for finding a held copy (``ShrunkOriginals``).
    static func reducedSize(for properties: ImageProperties, plan: (PixelSize) -> ThumborPlan) -> PixelSize? {
        guard properties.frameCount == 1 else { return nil }
        let upright = properties.orientedPixelSize
        guard let minimum = minimumSize(source: upright, plan: plan(upright)) else { return nil }
        return decodeSize(for: properties, minimum: minimum)
    }

    /// The size to ask the coder for, upright, or `nil` to decode the source whole: the
    /// smallest copy the coder makes cheaply that still covers `minimum` (``CoveringCopy``):
    /// - JPEG: the output at the largest of the DCT reductions 1/2, 1/4 and 1/8 that covers
    ///   `minimum` (`r * minimum <= size` on both sides, Pillow's `draft` rule, which thumbor's
    ///   PIL engine applies; libjpeg rounds the scaled sides up), so that the decoder's own
    ///   resample is a no-op;
    /// - WebP (libwebp's scaled decode, at the largest power-of-two reduction, 1/2, 1/4, ...),
    ///   HEIF (a stored thumbnail, ``/WebImageCore/ImageProperties/embeddedThumbnailSizes``) and
    ///   PNG (block means at the largest power-of-two factor, ``boxFactor(of:reducedTo:)``),
    ///   which thumbor decodes whole: a copy at least twice `minimum`
    ///   (``CoveringCopy/lastStepResample``), so that the Lanczos-3 resize still does the last
    ///   2x as it does from the whole image;
    /// - `nil` for other formats, and when no such copy is smaller than the source.
    static func decodeSize(for properties: ImageProperties, minimum: PixelSize) -> PixelSize? {
        let stored = properties.pixelSize
        let swaps = properties.orientation >= 5
        let needed = swaps ? PixelSize(width: minimum.height, height: minimum.width) : minimum
        let output: PixelSize?
        switch properties.format {
        case .jpeg:
            output = CoveringCopy.halvings(of: stored, covering: needed, margin: CoveringCopy.draft, maximum: 3).map { reduced(stored, by: 1 << $0) }
        case .webp:
            // libwebp scales to any size; a power-of-two scale is one copy many requests share.
            output = CoveringCopy.halvings(of: stored, covering: needed, margin: CoveringCopy.lastStepResample, maximum: 16).map { reduced(stored, by: 1 << $0) }
        case .heic, .heif:
            output = CoveringCopy.smallest(of: properties.embeddedThumbnailSizes, covering: needed, margin: CoveringCopy.lastStepResample)
        case .png:
            // The PNG coder's streaming reducer: block means at a power-of-two factor (one copy
            // many requests share), made from the rows as they are inflated, and only a factor
            // that divides both sides: a partial last block would make the copy's pixels
            // uneven, and the resize, which spreads the source evenly over the copy, would move
            // the picture by up to half an answer pixel.
            if var shift = CoveringCopy.halvings(of: stored, covering: needed, margin: CoveringCopy.lastStepResample, maximum: 16) {
                while shift > 0, stored.width % (1 << shift) != 0 || stored.height % (1 << shift) != 0 { shift -= 1 }
                output = shift > 0 ? reduced(stored, by: 1 << shift) : nil
            } else {
                output = nil
            }
        default:
            output = nil
        }
        guard let output else { return nil }
        return swaps ? PixelSize(width: output.height, height: output.width) : output
    }

    /// The whole factor a PNG of `stored` pixels is box-reduced by to make a copy of `size`
    /// pixels (stored orientation), `nil` when no power of two does.
    static func boxFactor(of stored: PixelSize, reducedTo size: PixelSize) -> Int? {
        (1...16).map { 1 << $0 }.first { reduced(stored, by: $0) == size }
    }

    /// `size` divided by `reduction`, sides rounded up (as libjpeg's scaled output).
    private static func reduced(_ size: PixelSize, by reduction: Int) -> PixelSize {
        PixelSize(width: (size.width + reduction - 1) / reduction, height: (size.height + reduction - 1) / reduction)
    }

    /// The originals' cache key part of a reduced decode for `request`: what it covers, from the
    /// request alone (the URL's size, box and crop), so that identical requests share it and
    /// requests that need other pixels do not.
    static func variantKey(for request: ThumborRequest) -> String {
        // What decides the plan's size and its crop's size (the decode size follows from them
        // and the source): not the alignment, focal points or flips, which only move the crop.
        let crop = request.crop.map { "\($0.left),\($0.top),\($0.right),\($0.bottom)" } ?? "-"
        let width = request.usesSourceWidth ? "orig" : String(request.width ?? 0)
        let height = request.usesSourceHeight ? "orig" : String(request.height ?? 0)
        let switches = request.filters.compactMap { filter -> String? in
            switch filter {
            case .noUpscale: "no_upscale"
            case .upscale: "upscale"
            case .stretch: "stretch"
            default: nil
            }
        }
        return "ShrinkOnLoad(\(request.fitIn.rawValue) \(width)x\(height) crop \(crop)\(switches.isEmpty ? "" : " " + switches.joined(separator: ",")))"
    }

    /// `region` of a source of `source` pixels, in the pixels of its reduced copy of `reduced`
    /// pixels: the origin rounded down, the far edge rounded up, inside the copy.
    static func region(_ region: PixelRect, of source: PixelSize, in reduced: PixelSize) -> PixelRect {
        let sx = Double(reduced.width) / Double(source.width)
        let sy = Double(reduced.height) / Double(source.height)
        let x = min(reduced.width - 1, max(0, Int((Double(region.x) * sx).rounded(.down))))
        let y = min(reduced.height - 1, max(0, Int((Double(region.y) * sy).rounded(.down))))
        let right = min(reduced.width, max(x + 1, Int((Double(region.x + region.width) * sx).rounded(.up))))
        let bottom = min(reduced.height, max(y + 1, Int((Double(region.y + region.height) * sy).rounded(.up))))
        return PixelRect(x: x, y: y, width: right - x, height: bottom - y)
    }
}
