import CLCMS2
public import Foundation
public import WebImageCore

/// Converts decoded pixels from the colour space an embedded ICC profile describes to sRGB, with
/// Little CMS 2 (the library Pillow, libvips and GIMP use).
///
/// Every built-in coder calls it when a file carries a profile (JPEG APP2, PNG `iCCP` or
/// `gAMA`/`cHRM`), and plug-in coders do the same with the profile of their container (WebP
/// `ICCP`): the decoded ``/WebImageCore/Bitmap`` is then sRGB and untagged, so transformers,
/// encoders and caches need not care (what libvips' `thumbnail` and imgproxy do by default;
/// ImageIO does it for SDWebImage on Apple platforms).
///
/// - **No cost for sRGB.** A profile that maps every probe colour to itself within one level
///   (an sRGB profile under another name) is remembered as the identity: no transform is built
///   and no pixel is touched. Untagged images never come here.
/// - **Transforms are cached** per profile (by the SHA-256 of its bytes), per pixel layout; a
///   transform is shared by every thread (built with `cmsFLAGS_NOCACHE`, so lcms2 keeps no
///   per-call state in it). At most ``transformCacheCapacity`` are kept.
/// - **Intent:** relative colorimetric, as libvips' `icc_transform` and imgproxy use: colours
///   inside sRGB are kept exactly, colours outside are clipped to the gamut.
/// - **Bad profiles** (truncated, absurd tag counts, a CMYK profile on an RGB image, larger than
///   ``maximumProfileBytes``) change nothing: the image is decoded as untagged, and ``convert(_:width:height:bytesPerRow:profile:layout:)``
///   says why in its result.
public enum ColorConversion {
    /// How the pixels handed to ``convert(_:width:height:bytesPerRow:profile:layout:)`` are laid out.
    public enum Layout: Hashable, Sendable {
        /// RGBA, 8 bits per sample (``/WebImageCore/Bitmap``'s layout); alpha is kept.
        case rgba
        /// RGB, 8 bits per sample, 3 bytes per pixel, converted into RGBA rows of another
        /// buffer (``ColorConverter/convertRows(from:sourceBytesPerRow:to:destinationBytesPerRow:width:rows:)``),
        /// whose alpha bytes are left as they are. lcms2 converts RGB input about 1.5 times as
        /// fast as RGBA input, so a decoder that can output RGB (libjpeg) converts through it.
        case rgb
        /// CMYK, 8 bits per sample, 4 bytes per pixel; `inverted` for Adobe's inverted CMYK
        /// (0 is full ink: JPEGs with an Adobe APP14 marker). The result is RGBA, opaque.
        case cmyk(inverted: Bool)
    }

    /// What a conversion did.
    public enum Outcome: Hashable, Sendable {
        /// The pixels were converted to sRGB.
        case converted
        /// The profile describes sRGB (within one level): nothing was touched.
        case alreadySRGB
        /// The profile cannot be used (the reason says why); nothing was touched and the pixels
        /// stay as they were decoded (for CMYK, the caller converts them without a profile).
        case unusable(String)
    }

    /// The largest profile used (4 MiB); a larger one is ``Outcome/unusable(_:)``. Real
    /// profiles are a few hundred bytes (matrix/TRC) to a few hundred KiB (CMYK LUTs).
    public static let maximumProfileBytes = 4 << 20

    /// The most transforms kept (oldest dropped first).
    public static let transformCacheCapacity = 32

    /// Converts `pixels` (`layout`, `width` x `height`, rows of `bytesPerRow` bytes) from
    /// `profile` to sRGB, in place; for ``Layout/cmyk(inverted:)`` the 4 bytes of each pixel
    /// become RGBA (opaque).
    /// - Returns: What was done.
    public static func convert(_ pixels: inout [UInt8], width: Int, height: Int, bytesPerRow: Int, profile: Data, layout: Layout) -> Outcome {
        guard width > 0, height > 0, bytesPerRow >= width * 4, pixels.count >= bytesPerRow * (height - 1) + width * 4 else {
            return .unusable("the pixel buffer does not match \(width)x\(height)")
        }
        let transform: ColorTransform
        switch ColorTransformCache.shared.transform(for: profile, layout: layout) {
        case .success(let found): transform = found
        case .failure(let reason): return .unusable(reason.message)
        }
        guard let converter = ColorConverter(transform) else { return .alreadySRGB }
        pixels.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            // lcms2 converts in place when input and output have the same size per pixel
            // (4 bytes here): one call for the whole image, rows of bytesPerRow.
            converter.convertRows(from: base, sourceBytesPerRow: bytesPerRow, to: base, destinationBytesPerRow: bytesPerRow, width: width, rows: height)
        }
        if case .cmyk = layout {
            // The transform wrote RGB plus an untouched fourth byte (K): make it opaque.
            for row in 0..<height {
                var index = row * bytesPerRow + 3
                for _ in 0..<width {
                    pixels[index] = 255
                    index += 4
                }
            }
        }
        return .converted
    }

    /// What a conversion from `profile` for `layout` would do, without pixels: a decoder asks
    /// first when the answer changes how it decodes (the JPEG coder outputs RGB rows for
    /// ``Layout/rgb`` only when the profile converts).
    public static func outcome(of profile: Data, layout: Layout) -> Outcome {
        switch ColorTransformCache.shared.transform(for: profile, layout: layout) {
        case .success(let transform): return transform.handle == nil ? .alreadySRGB : .converted
        case .failure(let reason): return .unusable(reason.message)
        }
    }

    /// The converter for `profile` and `layout`, looked up once (the profile hashed once) for a
    /// decoder that converts many rows or frames; `nil` when there is nothing to do (an sRGB
    /// profile) or the profile cannot be used (``outcome(of:layout:)`` says why).
    public static func converter(for profile: Data, layout: Layout) -> ColorConverter? {
        guard case .success(let transform) = ColorTransformCache.shared.transform(for: profile, layout: layout) else { return nil }
        return ColorConverter(transform)
    }

    /// Converts `bitmap` from `profile` to sRGB (see ``convert(_:width:height:bytesPerRow:profile:layout:)``).
    /// - Returns: What was done.
    @discardableResult
    public static func convert(_ bitmap: inout Bitmap, profile: Data) -> Outcome {
        let (width, height, bytesPerRow) = (bitmap.width, bitmap.height, bitmap.bytesPerRow)
        return convert(&bitmap.bytes, width: width, height: height, bytesPerRow: bytesPerRow, profile: profile, layout: .rgba)
    }

    /// What a decoder of RGBA pixels does with `profile` (the file's, `nil` for none) under
    /// `options`: with ``/WebImageCore/ColorProfileHandling/keep`` an RGB profile is carried
    /// (``keptProfile(_:)``), else the pixels are converted when the profile is usable and not
    /// sRGB (``converter(for:layout:)``).
    public static func plan(for profile: Data?, options: ImageDecodeOptions) -> ColorPlan {
        plan(for: profile, handling: options.colorProfileHandling)
    }

    /// ``plan(for:options:)`` for the options' ``/WebImageCore/ImageDecodeOptions/colorProfileHandling``.
    public static func plan(for profile: Data?, handling: ColorProfileHandling) -> ColorPlan {
        guard let profile else { return .none }
        if handling == .keep, let kept = keptProfile(profile) {
            return ColorPlan(keptProfile: kept, converter: nil)
        }
        return ColorPlan(keptProfile: nil, converter: converter(for: profile, layout: .rgba))
    }

    /// The profile an image decoded with ``/WebImageCore/ColorProfileHandling/keep`` carries
    /// for `profile`, with its description; `nil` when it cannot be kept: lcms2 cannot read it,
    /// it is larger than ``maximumProfileBytes``, or it does not describe RGB (a grey or CMYK
    /// profile: the decoder converts or ignores it as it would without keep).
    public static func keptProfile(_ profile: Data) -> ColorProfile? {
        guard profile.count >= 132, profile.count <= maximumProfileBytes else { return nil }
        return profile.withUnsafeBytes { raw -> ColorProfile? in
            guard let opened = cmsOpenProfileFromMem(raw.baseAddress, UInt32(raw.count)) else { return nil }
            defer { cmsCloseProfile(opened) }
            guard cmsGetColorSpace(opened) == cmsSigRgbData else { return nil }
            return ColorProfile(data: profile, description: ColorTransformCache.describe(opened))
        }
    }

    /// The description of `profile` (its `desc` tag, as lcms2 reads it in English), or `nil`
    /// when it cannot be opened or has none.
    public static func description(of profile: Data) -> String? {
        guard profile.count >= 128, profile.count <= maximumProfileBytes else { return nil }
        return profile.withUnsafeBytes { raw -> String? in
            guard let opened = cmsOpenProfileFromMem(raw.baseAddress, UInt32(raw.count)) else { return nil }
            defer { cmsCloseProfile(opened) }
            return ColorTransformCache.describe(opened)
        }
    }

    /// `profile` in words, for `webimage info`: `"ICC: <description>"`, `"ICC profile (no
    /// description)"`, or, when lcms2 cannot read it, `"unreadable ICC profile (used as untagged)"`.
    public static func summary(of profile: Data) -> String {
        guard profile.count >= 128, profile.count <= maximumProfileBytes else { return "unreadable ICC profile (used as untagged)" }
        return profile.withUnsafeBytes { raw -> String in
            guard let opened = cmsOpenProfileFromMem(raw.baseAddress, UInt32(raw.count)) else { return "unreadable ICC profile (used as untagged)" }
            defer { cmsCloseProfile(opened) }
            return ColorTransformCache.describe(opened).map { "ICC: \($0)" } ?? "ICC profile (no description)"
        }
    }
}
