import CLCMS2
import Foundation
import WebImageCore

/// The transforms of ``ColorConversion``, by the SHA-256 of the profile bytes and the pixel
/// layout; refusals are remembered too, so a bad profile is parsed once.
final class ColorTransformCache: Sendable {
    static let shared = ColorTransformCache()

    private struct Key: Hashable {
        let digest: SHA256Digest
        let layout: ColorConversion.Layout
    }

    private struct State {
        var entries: [Key: Result<ColorTransform, ColorProfileRefusal>] = [:]
        var order: [Key] = []
    }

    private let state = Locked(State())

    /// The transform for `profile` and `layout`, made on first use.
    func transform(for profile: Data, layout: ColorConversion.Layout) -> Result<ColorTransform, ColorProfileRefusal> {
        guard profile.count <= ColorConversion.maximumProfileBytes else {
            return .failure(ColorProfileRefusal(message: "the ICC profile has \(profile.count) bytes, more than the \(ColorConversion.maximumProfileBytes) allowed"))
        }
        let key = Key(digest: SHA256.hash(profile), layout: layout)
        if let found = state.withLock({ $0.entries[key] }) { return found }
        // Made outside the lock (lcms2 parses the profile); two threads may both make the
        // same transform the first time, and one is kept.
        let made = Self.make(profile, layout: layout)
        return state.withLock { state in
            if let found = state.entries[key] { return found }
            state.entries[key] = made
            state.order.append(key)
            if state.order.count > ColorConversion.transformCacheCapacity {
                state.entries[state.order.removeFirst()] = nil
            }
            return made
        }
    }

    /// The sRGB profile every transform ends in (lcms2's built-in, the IEC 61966-2-1 curves).
    private static func makeSRGB() -> cmsHPROFILE? {
        cmsCreate_sRGBProfile()
    }

    private static func make(_ profile: Data, layout: ColorConversion.Layout) -> Result<ColorTransform, ColorProfileRefusal> {
        guard profile.count >= 132 else {
            return .failure(ColorProfileRefusal(message: "the ICC profile is truncated (\(profile.count) bytes, less than its 132-byte header and tag count)"))
        }
        return profile.withUnsafeBytes { raw -> Result<ColorTransform, ColorProfileRefusal> in
            // lcms2 reports problems through a context's error handler; the default one prints
            // nothing, and a failed open or transform returns NULL.
            guard let source = cmsOpenProfileFromMem(raw.baseAddress, UInt32(raw.count)) else {
                return .failure(ColorProfileRefusal(message: "lcms2 cannot read the ICC profile (\(profile.count) bytes)"))
            }
            defer { cmsCloseProfile(source) }
            guard let srgb = makeSRGB() else {
                return .failure(ColorProfileRefusal(message: "lcms2 could not make its sRGB profile"))
            }
            defer { cmsCloseProfile(srgb) }
            let space = cmsGetColorSpace(source)
            let inputType: UInt32
            let flags = UInt32(cmsFLAGS_NOCACHE)
            switch layout {
            case .rgba, .rgb:
                guard space == cmsSigRgbData else {
                    return .failure(ColorProfileRefusal(message: "the ICC profile describes \(name(of: space)), not the RGB of the image"))
                }
                // RGBA is converted in place, so its alpha stays without cmsFLAGS_COPY_ALPHA
                // (which costs about 15% more); RGB rows go into RGBA rows whose alpha the
                // caller has set.
                inputType = layout == .rgb ? wi_lcms_type_rgb_8() : wi_lcms_type_rgba_8()
            case .cmyk(let inverted):
                guard space == cmsSigCmykData else {
                    return .failure(ColorProfileRefusal(message: "the ICC profile describes \(name(of: space)), not the CMYK of the image"))
                }
                inputType = inverted ? wi_lcms_type_cmyk_8_rev() : wi_lcms_type_cmyk_8()
            }
            let outputType = wi_lcms_type_rgba_8()
            guard let handle = cmsCreateTransform(source, inputType, srgb, outputType, UInt32(INTENT_RELATIVE_COLORIMETRIC), flags) else {
                return .failure(ColorProfileRefusal(message: "lcms2 cannot make a transform from the ICC profile (\(describe(source) ?? "no description")) to sRGB"))
            }
            let transform = ColorTransform(handle: handle)
            if layout != .cmyk(inverted: false), layout != .cmyk(inverted: true), isIdentity(transform, inputBytes: layout == .rgb ? 3 : 4) {
                return .success(ColorTransform(handle: nil))
            }
            return .success(transform)
        }
    }

    /// Whether `transform` (RGBA to RGBA) maps a grid of probe colours to themselves within
    /// one level: an sRGB profile under another name, whose conversion would change nothing.
    private static func isIdentity(_ transform: ColorTransform, inputBytes: Int) -> Bool {
        guard let handle = transform.handle else { return true }
        let levels: [UInt8] = [0, 16, 48, 96, 128, 160, 208, 240, 255]
        var colors: [(UInt8, UInt8, UInt8)] = []
        for red in levels {
            for green in levels {
                for blue in levels { colors.append((red, green, blue)) }
            }
        }
        var probe: [UInt8] = []
        probe.reserveCapacity(colors.count * inputBytes)
        for color in colors {
            probe += [color.0, color.1, color.2]
            if inputBytes == 4 { probe.append(255) }
        }
        var output = [UInt8](repeating: 255, count: colors.count * 4)
        cmsDoTransform(handle, probe, &output, UInt32(colors.count))
        for (index, color) in colors.enumerated() {
            let out = index * 4
            if abs(Int(color.0) - Int(output[out])) > 1 || abs(Int(color.1) - Int(output[out + 1])) > 1 || abs(Int(color.2) - Int(output[out + 2])) > 1 {
                return false
            }
        }
        return true
    }

    /// A profile's description (English `desc`), or `nil`.
    static func describe(_ profile: cmsHPROFILE) -> String? {
        let length = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", nil, 0)
        guard length > 1, length < 4096 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length))
        cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, length)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// A colour space signature in words.
    private static func name(of space: cmsColorSpaceSignature) -> String {
        switch space {
        case cmsSigRgbData: return "RGB"
        case cmsSigCmykData: return "CMYK"
        case cmsSigGrayData: return "grey"
        case cmsSigLabData: return "Lab"
        case cmsSigXYZData: return "XYZ"
        default:
            let value = space.rawValue
            let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
            return "colour space '\(String(decoding: bytes, as: UTF8.self))'"
        }
    }
}
