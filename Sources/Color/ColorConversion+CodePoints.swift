import CLCMS2
public import Foundation

extension ColorConversion {
    /// The colour space that coding-independent code points (ITU-T H.273: AVIF and HEIF `nclx`,
    /// PNG `cICP`) name, as an ICC profile made by lcms2, for ``convert(_:width:height:bytesPerRow:profile:layout:)``.
    ///
    /// - Parameters:
    ///   - primaries: `colour_primaries`: 1 BT.709/sRGB, 4 BT.470M, 5 BT.601 (625), 6 and 7
    ///     BT.601 (525) / SMPTE 240M, 9 BT.2020, 11 DCI-P3, 12 Display P3; 2 (unspecified) reads
    ///     as BT.709.
    ///   - transfer: `transfer_characteristics`: 13 sRGB, 1/6/14/15 the BT.709 curve (the
    ///     inverse of its camera curve, as Chrome's skcms reads it), 8 linear, 4 gamma 2.2, 5
    ///     gamma 2.8; 2 (unspecified) reads as sRGB.
    /// - Returns: The profile, described by ``name(primaries:transfer:)``, or `nil` for sRGB itself (BT.709 primaries with the sRGB curve,
    ///   nothing to convert) and for what this does not convert: HDR curves (16 PQ, 18 HLG:
    ///   they need tone mapping) and unknown code points.
    public static func profile(primaries: Int, transfer: Int) -> Data? {
        let primaries = primaries == 2 ? 1 : primaries
        let transfer = transfer == 2 ? 13 : transfer
        if primaries == 1 && transfer == 13 { return nil }
        let d65 = (0.3127, 0.3290)
        let chromaticities: (white: (Double, Double), xy: [Double])
        switch primaries {
        case 1: chromaticities = (d65, [0.640, 0.330, 0.300, 0.600, 0.150, 0.060])
        case 4: chromaticities = ((0.310, 0.316), [0.67, 0.33, 0.21, 0.71, 0.14, 0.08])
        case 5: chromaticities = (d65, [0.64, 0.33, 0.29, 0.60, 0.15, 0.06])
        case 6, 7: chromaticities = (d65, [0.630, 0.340, 0.310, 0.595, 0.155, 0.070])
        case 9: chromaticities = (d65, [0.708, 0.292, 0.170, 0.797, 0.131, 0.046])
        case 11: chromaticities = ((0.314, 0.351), [0.680, 0.320, 0.265, 0.690, 0.150, 0.060])
        case 12: chromaticities = (d65, [0.680, 0.320, 0.265, 0.690, 0.150, 0.060])
        default: return nil
        }
        // lcms2's parametric curve type 4: Y = (aX + b)^g for X >= d, Y = cX below.
        let parameters: [Double]
        switch transfer {
        case 13: parameters = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        case 1, 6, 14, 15: parameters = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
        case 8: parameters = [1, 1, 0, 0, 0]
        case 4: parameters = [2.2, 1, 0, 0, 0]
        case 5: parameters = [2.8, 1, 0, 0, 0]
        default: return nil
        }
        guard let curve = parameters.withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, 4, $0.baseAddress) }) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        let xy = chromaticities.xy
        return rgbProfile(
            white: cmsCIExyY(x: chromaticities.white.0, y: chromaticities.white.1, Y: 1),
            primaries: cmsCIExyYTRIPLE(Red: cmsCIExyY(x: xy[0], y: xy[1], Y: 1), Green: cmsCIExyY(x: xy[2], y: xy[3], Y: 1), Blue: cmsCIExyY(x: xy[4], y: xy[5], Y: 1)),
            curves: [curve, curve, curve], description: name(primaries: primaries, transfer: transfer)
        )
    }

    /// A short name for code points, for `webimage info`: "sRGB", "Display P3", "BT.2020 PQ"...
    public static func name(primaries: Int, transfer: Int) -> String {
        let space: String
        switch primaries {
        case 1, 2: space = "BT.709"
        case 9: space = "BT.2020"
        case 11: space = "DCI-P3"
        case 12: space = "Display P3"
        default: space = "primaries \(primaries)"
        }
        switch transfer {
        case 13, 2: return (primaries == 1 || primaries == 2) ? "sRGB" : space
        case 16: return "\(space) PQ"
        case 18: return "\(space) HLG"
        case 8: return "\(space) linear"
        case 1, 6, 14, 15: return "\(space) (BT.709 curve)"
        default: return "\(space), transfer \(transfer)"
        }
    }
}
