import Foundation
import HEIFCoder
import WebImageCore

/// One fuzz input through every decoding path of `HEIFCoder`: the full decode (with a pixel
/// limit that keeps memory small), a thumbnail request (stored thumbnail or resampled primary)
/// and the same without stored thumbnails. A `WebImageError` is an expected outcome; any other
/// error, a trap or a sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: start, count: count)
    var options = ImageDecodeOptions()
    options.maxPixelCount = 1 << 22  // 4 megapixels: 16 MiB per image at most
    _ = HEIFCoder().canDecode(data)
    expectingOnlyWebImageErrors {
        let image = try HEIFCoder().decode(data, options: options)
        precondition(!image.pixelSize.isEmpty, "decoded an empty image")
        precondition(image.bitmap.bytes.count >= image.pixelSize.width * image.pixelSize.height * 4, "short bitmap")
    }
    options.thumbnailPixelSize = PixelSize(width: 37, height: 23)
    for coder in [HEIFCoder(), HEIFCoder(usesEmbeddedThumbnails: false)] where count % 2 == 0 || coder.usesEmbeddedThumbnails {
        expectingOnlyWebImageErrors {
            let thumbnail = try coder.decode(data, options: options)
            precondition(thumbnail.pixelSize.width <= 37 && thumbnail.pixelSize.height <= 23, "thumbnail too large")
        }
    }
    return 0
}

/// Runs `body`; a `WebImageError` is fine, any other error stops the fuzzer.
func expectingOnlyWebImageErrors(_ body: () throws -> Void) {
    do {
        try body()
    } catch is WebImageError {
    } catch {
        fatalError("threw \(type(of: error)), not WebImageError: \(error)")
    }
}

/// libFuzzer's driver, in the runtime that `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

/// The entry point SwiftPM links for this executable target (`<Target>_main`): it hands over
/// to libFuzzer's driver.
@_cdecl("FuzzHEIF_main")
public func fuzzHEIFMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { bytes, size in fuzzHEIF(bytes, size) }
}
