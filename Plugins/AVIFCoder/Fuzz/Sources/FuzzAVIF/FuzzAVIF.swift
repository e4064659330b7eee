import AVIFCoder
import Foundation
import WebImageCore

/// One fuzz input through every decoding path of `AVIFCoder`: the full decode (with a pixel
/// limit that keeps memory small, and a thumbnail on odd-sized inputs), every frame of a
/// sequence in a scrambled order, and the animated provider from its last frame. A
/// `WebImageError` is an expected outcome; any other error, a trap or a sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAVIF(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: start, count: count)
    let coder = AVIFCoder()
    var options = ImageDecodeOptions()
    options.maxPixelCount = 1 << 22  // 4 megapixels: 16 MiB of RGBA per frame at most
    options.maxFrameCount = 64
    if count % 2 == 1 { options.thumbnailPixelSize = PixelSize(width: 37, height: 23) }
    _ = coder.canDecode(data)
    expectingOnlyWebImageErrors {
        let image = try coder.decode(data, options: options)
        precondition(!image.pixelSize.isEmpty, "decoded an empty image")
        let frames = min(image.frameCount, 24)
        for index in (0..<frames).map({ ($0 * 7) % frames }) {
            expectingOnlyWebImageErrors {
                let frame = try image.frame(at: index)
                precondition(frame.bitmap.size == image.pixelSize, "frame \(index) has another size")
            }
        }
    }
    expectingOnlyWebImageErrors {
        let provider = try coder.makeAnimatedImageProvider(for: data, options: options)
        if provider.frameCount > 1 { _ = try provider.frame(at: provider.frameCount - 1) }
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
@_cdecl("FuzzAVIF_main")
public func fuzzAVIFMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { bytes, size in fuzzAVIF(bytes, size) }
}
