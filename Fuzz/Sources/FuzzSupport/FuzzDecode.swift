import Foundation
public import WebImageCore

/// What every harness does with one input, under the library's default limits
/// (``ImageDecodeOptions``' defaults: pixels per frame, pixels per image, frames):
///
/// 1. read its headers (``ImageHeaderReader``) and ask ``ImageCoder/canDecode(_:)``;
/// 2. decode it fully, then every frame of an animation in order and the last and first again
///    (random access after a full pass);
/// 3. decode it as a thumbnail (every frame at thumbnail size);
/// 4. for an ``AnimatedImageCoder``, open a frame provider and ask it for its last frame first;
/// 5. for a ``ProgressiveImageCoder``, feed an incremental decoder growing prefixes, then all.
///
/// Any `WebImageError` is fine; a crash, a trap, a leak, a non-WebImageError throw, or an input
/// that passes the limits and then exhausts memory or time, is a finding.
public enum FuzzDecode {
    /// The size thumbnails are asked for: small and odd, so that every resampler path runs.
    public static let thumbnailSize = PixelSize(width: 7, height: 5)

    /// Runs every step above for `coder` on the `count` bytes at `bytes`; returns 0 (libFuzzer's
    /// "keep going").
    public static func run(_ coder: any ImageCoder, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
        run(coder, Data(bytes: bytes, count: count))
    }

    /// Runs every step above for `coder` on `data`; returns 0.
    public static func run(_ coder: any ImageCoder, _ data: Data) -> Int32 {
        if let reader = coder as? any ImageHeaderReader {
            check {
                let properties = try reader.readProperties(of: data)
                precondition(properties.frameCount >= 1 && properties.frameDurations.count == properties.frameCount, "inconsistent properties")
            }
        }
        _ = coder.canDecode(data)
        check { try exercise(coder.decode(data, options: ImageDecodeOptions())) }
        thumbnail(coder, data)
        if let animated = coder as? any AnimatedImageCoder {
            check {
                let provider = try animated.makeAnimatedImageProvider(for: data, options: ImageDecodeOptions())
                if provider.frameCount > 1 { _ = try provider.frame(at: provider.frameCount - 1) }
                _ = try provider.frame(at: 0)
            }
        }
        if let progressive = coder as? any ProgressiveImageCoder {
            let decoder = progressive.makeIncrementalDecoder(options: ImageDecodeOptions())
            var length = min(data.count, 16)
            while length < data.count {
                decoder.update(data: data.prefix(length), finished: false)
                if let partial = decoder.currentImage() { precondition(!partial.pixelSize.isEmpty, "empty partial image") }
                length += max(1, data.count / 5)
            }
            decoder.update(data: data, finished: true)
            _ = decoder.currentImage()
        }
        return 0
    }

    /// Decodes `data` with `coder` as a ``thumbnailSize`` thumbnail and checks the result fits.
    public static func thumbnail(_ coder: any ImageCoder, _ data: Data) {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = thumbnailSize
        check {
            let image = try coder.decode(data, options: options)
            precondition(image.pixelSize.width <= thumbnailSize.width && image.pixelSize.height <= thumbnailSize.height, "thumbnail larger than asked")
            try exercise(image)
        }
    }

    static func exercise(_ image: WebImage) throws {
        precondition(!image.pixelSize.isEmpty, "decoded an empty image")
        let count = image.frameCount
        for index in Array(0..<count) + [count - 1, 0] {
            let frame = try image.frame(at: index)
            precondition(frame.bitmap.size == image.pixelSize, "frame \(index) has another size")
        }
    }

    /// Runs `body`; a `WebImageError` is fine, any other error stops the fuzzer.
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
