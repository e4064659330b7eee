import Foundation
import FuzzSupport
import WebImageColor
import WebImageCore

/// Hands one input to the colour path as an ICC profile (issue 31): the conversion of an RGBA
/// bitmap and of CMYK pixels, the summary `webimage info` prints, and the same bytes as code
/// points. A bad profile must be refused (`.unusable`), never crash, hang or run away in memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let profile = Data(bytes: bytes, count: count)
    if var bitmap = try? Bitmap(width: 8, height: 4, fill: RGBAColor(red: 200, green: 100, blue: 50, alpha: 255)) {
        _ = ColorConversion.convert(&bitmap, profile: profile)
    }
    var cmyk = [UInt8](repeating: 128, count: 8 * 4 * 4)
    _ = ColorConversion.convert(&cmyk, width: 8, height: 4, bytesPerRow: 32, profile: profile, layout: .cmyk(inverted: count % 2 == 0))
    _ = ColorConversion.summary(of: profile)
    if count >= 2 { _ = ColorConversion.profile(primaries: Int(bytes[0]), transfer: Int(bytes[1])) }
    return 0
}

/// The entry point SwiftPM links for this executable: libFuzzer's driver.
@_cdecl("FuzzICC_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { bytes, count in fuzz(bytes, count) }
}
