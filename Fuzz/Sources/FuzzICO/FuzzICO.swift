import FuzzSupport
import ICOCoder

/// Decodes one input with `ICOCoder` (the plug-in product), every path FuzzDecode runs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    FuzzDecode.run(ICOCoder(), bytes, count)
}

/// The entry point SwiftPM links for this executable: libFuzzer's driver.
@_cdecl("FuzzICO_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { bytes, count in fuzz(bytes, count) }
}
