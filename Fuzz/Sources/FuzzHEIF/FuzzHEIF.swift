import Foundation
import FuzzSupport
import HEIFCoder

/// Decodes one input with `HEIFCoder` (the plug-in product), every path ``FuzzDecode`` runs,
/// plus a thumbnail that ignores stored thumbnails (so the primary image is resampled even
/// when the file carries a small one).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    FuzzDecode.thumbnail(HEIFCoder(usesEmbeddedThumbnails: false), data)
    return FuzzDecode.run(HEIFCoder(), data)
}

/// The entry point SwiftPM links for this executable: libFuzzer's driver.
@_cdecl("FuzzHEIF_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { bytes, count in fuzz(bytes, count) }
}
