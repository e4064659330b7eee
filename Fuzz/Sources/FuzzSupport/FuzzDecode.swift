import Foundation
import WebImageCoders
import WebImageCore

/// What every harness does with one input, under the library's default limits
/// (``ImageDecodeOptions``' defaults: pixels per frame, pixels per image, frames): read its
/// headers (``ImageHeaderReader``), decode it fully and every frame of an animation, as a
/// thumbnail (every frame at thumbnail size), and (for progressive coders) incrementally from a
/// prefix. Any `WebImageError` is fine; a crash, a trap, a leak, a non-WebImageError throw, or
/// an input that passes the limits and then exhausts memory or time, is a finding.
public enum FuzzDecode {
    public static func run(_ coder: any ImageCoder, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
        let data = Data(bytes: bytes, count: count)
        if let reader = coder as? any ImageHeaderReader {
            check {
                let properties = try reader.readProperties(of: data)
                precondition(properties.frameCount >= 1 && properties.frameDurations.count == properties.frameCount, "inconsistent properties")
            }
        }
        var options = ImageDecodeOptions()
        check { try exercise(coder.decode(data, options: options)) }
        options.thumbnailPixelSize = PixelSize(width: 7, height: 5)
        check { try exercise(coder.decode(data, options: options)) }
        if let progressive = coder as? any ProgressiveImageCoder {
            let decoder = progressive.makeIncrementalDecoder(options: ImageDecodeOptions())
            decoder.update(data: data.prefix(count / 2), finished: false)
            _ = decoder.currentImage()
            decoder.update(data: data, finished: true)
            _ = decoder.currentImage()
        }
        return 0
    }

    static func exercise(_ image: WebImage) throws {
        precondition(!image.pixelSize.isEmpty, "decoded an empty image")
        for index in 0..<image.frameCount {
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
