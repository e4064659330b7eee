import CLCMS2
public import Foundation

extension ColorConversion {
    /// The colour space of a calibrated RGB description (BMP's `LCS_CALIBRATED_RGB`: the CIE XYZ
    /// of the red, green and blue endpoints and a gamma per channel) as an ICC profile made by
    /// lcms2. The white point is the sum of the three endpoints.
    ///
    /// - Parameters:
    ///   - red: The red endpoint's X, Y and Z.
    ///   - green: The green endpoint's X, Y and Z.
    ///   - blue: The blue endpoint's X, Y and Z.
    ///   - gamma: The red, green and blue gamma (a pure power curve each).
    /// - Returns: The profile, or `nil` when the values describe no colour space (an endpoint
    ///   or the white with no luminance, a gamma outside 0.1...10, values that are not finite).
    public static func profile(red: [Double], green: [Double], blue: [Double], gamma: [Double]) -> Data? {
        let endpoints = [red, green, blue]
        guard endpoints.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0.isFinite && $0 >= 0 } }), gamma.count == 3,
              gamma.allSatisfy({ $0.isFinite && $0 >= 0.1 && $0 <= 10 }) else { return nil }
        func xyY(_ xyz: [Double]) -> cmsCIExyY? {
            let sum = xyz[0] + xyz[1] + xyz[2]
            guard sum > 0, xyz[1] > 0 else { return nil }
            return cmsCIExyY(x: xyz[0] / sum, y: xyz[1] / sum, Y: xyz[1])
        }
        let whiteXYZ = (0..<3).map { index in endpoints.reduce(0) { $0 + $1[index] } }
        guard var white = xyY(whiteXYZ), let r = xyY(red), let g = xyY(green), let b = xyY(blue) else { return nil }
        white.Y = 1
        let curves: [OpaquePointer?] = gamma.map { cmsBuildGamma(nil, $0) }
        defer { for curve in curves where curve != nil { cmsFreeToneCurve(curve) } }
        guard curves.allSatisfy({ $0 != nil }) else { return nil }
        return rgbProfile(white: white, primaries: cmsCIExyYTRIPLE(Red: r, Green: g, Blue: b), curves: curves, description: "Calibrated RGB")
    }

    /// The RGB profile lcms2 makes of a white point, primaries and one tone curve per channel,
    /// saved to bytes with `description` as its `desc` tag; `nil` when lcms2 cannot. The curves
    /// stay the caller's to free.
    static func rgbProfile(white: cmsCIExyY, primaries: cmsCIExyYTRIPLE, curves: [OpaquePointer?], description: String) -> Data? {
        var white = white, primaries = primaries, curves = curves
        guard let made = curves.withUnsafeMutableBufferPointer({ cmsCreateRGBProfile(&white, &primaries, $0.baseAddress) }) else { return nil }
        defer { cmsCloseProfile(made) }
        return savedProfile(made, description: description)
    }

    /// `profile` saved to bytes with `description` as its `desc` tag, or `nil` when lcms2 cannot.
    private static func savedProfile(_ profile: cmsHPROFILE, description: String) -> Data? {
        if let mlu = cmsMLUalloc(nil, 1) {
            defer { cmsMLUfree(mlu) }
            if cmsMLUsetASCII(mlu, "en", "US", description) != 0 {
                cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
            }
        }
        var length: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0, length > 0 else { return nil }
        var data = Data(count: Int(length))
        let saved = data.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &length) != 0 }
        return saved ? data : nil
    }
}
