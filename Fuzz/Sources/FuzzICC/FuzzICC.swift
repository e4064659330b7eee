import Foundation
import FuzzSupport
import WebImageColor
import WebImageCore

/// Hands one input to the colour path as an ICC profile (issue 31): the conversion of an RGBA
/// bitmap and of CMYK pixels, the summary `webimage info` prints, keeping it (the keep plan), and
/// the same bytes as code points and as BMP's calibrated endpoints. A bad profile must be refused
/// (`.unusable`), never crash, hang or run away in memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let profile = Data(bytes: bytes, count: count)
    if var bitmap = try? Bitmap(width: 8, height: 4, fill: RGBAColor(red: 200, green: 100, blue: 50, alpha: 255)) {
        _ = ColorConversion.convert(&bitmap, profile: profile)
    }
    var cmyk = [UInt8](repeating: 128, count: 8 * 4 * 4)
    _ = ColorConversion.convert(&cmyk, width: 8, height: 4, bytesPerRow: 32, profile: profile, layout: .cmyk(inverted: count % 2 == 0))
    _ = ColorConversion.summary(of: profile)
    _ = ColorConversion.plan(for: profile, handling: .keep)
    if count >= 2 { _ = ColorConversion.profile(primaries: Int(bytes[0]), transfer: Int(bytes[1])) }
    if count >= 48 {
        // Twelve 32-bit values as BMP stores them: 2.30 fixed-point XYZ, 16.16 gammas.
        let values = (0..<12).map { index in
            Double((0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[index * 4 + $1]) << (8 * $1) })
        }
        let xyz = values[0..<9].map { $0 / Double(1 << 30) }
        _ = ColorConversion.profile(red: Array(xyz[0..<3]), green: Array(xyz[3..<6]), blue: Array(xyz[6..<9]), gamma: values[9..<12].map { $0 / 65536 })
    }
    return 0
}

/// The entry point SwiftPM links for this executable: libFuzzer's driver.
@_cdecl("FuzzICC_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { bytes, count in fuzz(bytes, count) }
}
