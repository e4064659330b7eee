import FuzzSupport
import WebImageCoders

/// Decodes one input with `GIFCoder`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    FuzzDecode.run(GIFCoder(), bytes, count)
}

/// The entry point SwiftPM links for this executable: libFuzzer's driver.
@_cdecl("FuzzGIF_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { bytes, count in fuzz(bytes, count) }
}
