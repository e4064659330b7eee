import Foundation
import FuzzSupport
import PDFCoder
import WebImageCore

/// Decodes one input with `PDFCoder` (the plug-in product), every path ``FuzzDecode`` runs,
/// plus the page count and the second page (an input of one page gives an error).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    _ = try? PDFCoder().pageCount(of: data)
    var options = ImageDecodeOptions()
    options.context.pdfPageIndex = 1
    options.thumbnailPixelSize = PixelSize(width: 64, height: 64)
    _ = try? PDFCoder(renderTimeLimit: 2).decode(data, options: options)
    return FuzzDecode.run(PDFCoder(renderTimeLimit: 2), data)
}

/// The entry point SwiftPM links for this executable: libFuzzer's driver.
@_cdecl("FuzzPDF_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv) { bytes, count in fuzz(bytes, count) }
}
