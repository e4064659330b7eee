import Foundation
import FuzzSupport
import SVGCoder

/// Decodes one input with `SVGCoder` (the plug-in product), every path ``FuzzDecode`` runs. A
/// short render time limit keeps slow documents from piling up: past it, the render is left to
/// finish on its own thread (the coder's documented behaviour), and libFuzzer's own timeout
/// still reports a document whose parsing alone is slow.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    FuzzDecode.run(SVGCoder(renderTimeLimit: 2), Data(bytes: bytes, count: count))
}

/// The entry point SwiftPM links for this executable: libFuzzer's driver.
@_cdecl("FuzzSVG_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { bytes, count in fuzz(bytes, count) }
}
