import Foundation
import SwiftWebImage

// Each check uses one plug-in product through its public API only, with one line of
// registration where the plug-in has one, and returns what it saw. A new plug-in product is one
// more file and one more entry here.
let checks: [(product: String, run: @Sendable () async throws -> String)] = [
    ("WebPCoder", WebPCheck.run),
    ("RedisCache", RedisCheck.run),
    ("SQLiteCache", SQLiteCheck.run),
    ("PhotosLoader", PhotosCheck.run),
    ("AVIFCoder", AVIFCheck.run),
    ("HEIFCoder", HEIFCheck.run),
    ("JXLCoder", JXLCheck.run),
    ("TIFFCoder", TIFFCheck.run),
    ("ICOCoder", ICOCheck.run),
    ("SVGCoder", SVGCheck.run),
    ("PDFCoder", PDFCheck.run),
]

var failures = 0
for check in checks {
    do {
        print("PluginConsumer: \(check.product): \(try await check.run())")
    } catch {
        failures += 1
        FileHandle.standardError.write(Data("PluginConsumer: \(check.product) FAILED: \(error)\n".utf8))
    }
}
print("PluginConsumer: \(checks.count - failures) of \(checks.count) plug-in products work")
exit(failures == 0 ? 0 : 1)
