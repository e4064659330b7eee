import Foundation
import WebImageCoders
import WebImageCore

/// What every harness does with one input: decode it fully, as a thumbnail, every frame of an
/// animation, and (for progressive coders) incrementally from a prefix. Any `WebImageError` is
/// fine; a crash, a trap, a leak or a non-WebImageError throw is a finding.
public enum FuzzDecode {
    /// A limit low enough that AddressSanitizer's memory stays bounded.
    static let maxPixelCount = 1 << 20

    public static func run(_ coder: any ImageCoder, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
        let data = Data(bytes: bytes, count: count)
        var options = ImageDecodeOptions()
        options.maxPixelCount = maxPixelCount
        check { try exercise(coder.decode(data, options: options)) }
        options.thumbnailPixelSize = PixelSize(width: 7, height: 5)
        check { try exercise(coder.decode(data, options: options)) }
        if let progressive = coder as? any ProgressiveImageCoder {
            var incremental = ImageDecodeOptions()
            incremental.maxPixelCount = maxPixelCount
            let decoder = progressive.makeIncrementalDecoder(options: incremental)
            decoder.update(data: data.prefix(count / 2), finished: false)
            _ = decoder.currentImage()
            decoder.update(data: data, finished: true)
            _ = decoder.currentImage()
        }
        return 0
    }

    static func exercise(_ image: WebImage) throws {
        precondition(!image.pixelSize.isEmpty, "decoded an empty image")
        for index in 0..<min(image.frameCount, 64) {
            let frame = try image.frame(at: index)
            precondition(frame.bitmap.size == image.pixelSize, "frame \(index) has another size")
        }
    }

    static func check(_ body: () throws -> Void) {
        do {
            try body()
        } catch is WebImageError {
        } catch {
            fatalError("decoder threw \(type(of: error)), not WebImageError: \(error)")
        }
    }
}

/// libFuzzer's driver (in the fuzzer runtime that `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

/// Runs libFuzzer with `callback`. SwiftPM links an executable's entry point as `<Target>_main`,
/// so each harness defines that symbol and hands over to libFuzzer's driver here.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, callback)
}
